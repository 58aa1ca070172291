// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashApp

exit(Splashd.main())
