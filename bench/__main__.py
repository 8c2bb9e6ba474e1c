from bench import parser_bench

parser_bench.main()
