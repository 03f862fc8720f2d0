# SPDX-License-Identifier: MIT
# CTest smoke run of a libFuzzer binary: -DFUZZER (empty: skip), -DSEEDS (read-only seed
# corpus), -DDICT, -DWORK (scratch directory for the grown corpus and crash artefacts),
# -DSECONDS (time bound). Fails when the fuzzer finds a crash.
if(FUZZER STREQUAL "" OR NOT EXISTS "${FUZZER}")
    message("fuzz smoke skipped: the fuzzer is not built (clang + -DDIFFUSCOPE_BUILD_FUZZERS=ON,"
            " or tests/fuzz/run_fuzz.sh)")
    return()
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus")
execute_process(
    COMMAND "${FUZZER}" "${WORK}/corpus" "${SEEDS}" -dict=${DICT} -max_total_time=${SECONDS}
            -runs=1000000 -timeout=10 -rss_limit_mb=2048 -max_len=4096
            -artifact_prefix=${WORK}/ -print_final_stats=1
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
string(REGEX MATCH "stat::average_exec_per_sec: *[0-9]+" speed "${out}")
message("${runs}\n${speed}")
if(NOT rc EQUAL 0)
    message("${out}")
    message(FATAL_ERROR "the fuzzer failed (exit ${rc}); the input is in ${WORK}")
endif()
