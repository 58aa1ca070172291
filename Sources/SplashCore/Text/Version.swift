// SPDX-License-Identifier: Apache-2.0
/// splashd's version.
public let splashdVersion = "0.1.0"
