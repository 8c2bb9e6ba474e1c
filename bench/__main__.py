import sys

from bench import (
    engine_bench,
    eval_bench,
    interactive_bench,
    language_bench,
    parser_bench,
    report_bench,
    tui_bench,
    voice_bench,
)

if "--real" in sys.argv:
    from bench import real_bench, real_first, real_pace, real_quality

    real_first.main()
    print()
    real_bench.main()
    print()
    real_quality.main()
    print()
    real_pace.main()
else:
    parser_bench.main()
    print()
    engine_bench.main()
    print()
    eval_bench.main()
    print()
    tui_bench.main()
    print()
    language_bench.main()
    print()
    voice_bench.main()
    print()
    report_bench.main()
    print()
    interactive_bench.main()
