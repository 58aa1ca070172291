// SPDX-License-Identifier: Apache-2.0
#pragma once
/* libFuzzer's driver, linked in by `make fuzz` only (libclang_rt.fuzzer_no_main). */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
