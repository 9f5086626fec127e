# The README's two commands, `make run` and `make test`, work on a fresh Debian 12 machine:
# each first installs the Debian packages the build and the tests need.

BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc)

# The Debian packages the binary needs to build, which is all that `make run` installs.
# OpenSSL's headers give the HTTP client its TLS, which it opens with dlopen at the first https
# URL.
PROBE_PACKAGES := g++ cmake ninja-build pkg-config \
	libva-dev libva-drm2 libdrm-dev pci.ids \
	nlohmann-json3-dev libyaml-cpp-dev libcli11-dev \
	libffmpeg-nvenc-dev libssl-dev
# Every Debian package the build, the tests and the benchmarks use. The kubelet plugin serves
# gRPC over libnghttp2 with protobuf-lite (src/dra/grpc_server); gRPC C++ is the plugin tests'
# client alone. libcurl's and GnuTLS's headers serve only bench/tls_client_floor,
# which weighs the TLS libraries an API client could be built on; the API client is our own.
# The curl command is a real client of the reverse proxy's tests.
PACKAGES := $(PROBE_PACKAGES) vainfo \
	libpci-dev \
	libcurl4-openssl-dev curl \
	ffmpeg libx264-dev libx265-dev libavcodec-dev libavutil-dev \
	libgtest-dev libgmock-dev libbenchmark-dev \
	libnghttp2-dev libprotobuf-dev protobuf-compiler \
	libgrpc++-dev protobuf-compiler-grpc \
	python3-jsonschema python3-prometheus-client python3-yaml \
	libgnutls28-dev openssl
FUZZ_PACKAGES := clang libclang-rt-14-dev
# What the real PeerTube server, its database and cache, and the official runner need for the
# end-to-end tests (Node 20 comes with the machine, or build-peertube takes it from npm).
PEERTUBE_PACKAGES := postgresql redis-server rsync make g++ python3 git curl
FORMAT_PACKAGES := clang-format black
# The admin's pages are checked in a real browser in the PeerTube stage
# (tests/browser/check_pages.py): Debian's Chromium and its driver, and Selenium from PyPI,
# pinned, in a virtual environment beside the build (Debian 12's Python takes no pip install of
# its own).
BROWSER_PACKAGES := chromium chromium-driver python3-venv
BROWSER_PYPI := selenium==4.27.1
BROWSER_VENV = $(BUILD)/browser-venv

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Go's release tarball installs in /usr/local/go, which only login shells put on PATH.
export PATH := $(PATH):/usr/local/go/bin

.PHONY: all deps prefetch probe-deps build run check check-tree test test-sanitize test-cluster \
	peertube peertube-kit-check test-peertube browser-deps bench bench-probe bench-worker \
	bench-pool \
	fuzz fuzz-deps format docs clean test-monitoring

all: build

# deps installs only what is missing, so that it costs a few dpkg look-ups once done.
define install_missing
	@missing=$$(for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
	    $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

probe-deps:
	$(call install_missing,$(PROBE_PACKAGES))

# browser-deps installs the browser and makes the virtual environment with Selenium, once.
browser-deps:
	$(call install_missing,$(BROWSER_PACKAGES))
	@$(BROWSER_VENV)/bin/pip freeze 2>/dev/null | grep -qx '$(BROWSER_PYPI)' || { \
	  rm -rf $(BROWSER_VENV) && /usr/bin/python3 -m venv $(BROWSER_VENV) && \
	  $(BROWSER_VENV)/bin/pip install -q '$(BROWSER_PYPI)'; }

fuzz-deps: deps
	$(call install_missing,$(FUZZ_PACKAGES))

# The full build configures everything, whatever `make run` configured before it. Its debugging
# information is line tables only (-g1): enough for a backtrace, and much cheaper to compile
# than full information for the JSON templates.
build: deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DMEDIA_CAP_PROBE_ONLY=OFF
	ninja -C $(BUILD) -j$(JOBS)

# run builds the binary alone. On a fresh build directory it configures the probe's and the
# doctor's subcommands only: no agent module, no worker or pool, no tests
# (src/cli/transcoding_subcommands.h). On one that `make build` configured, it builds the whole
# binary's targets. It builds as the full build does (-O2) but without debugging information:
# a first look at the probe needs no debugger, and the JSON templates compile faster without.
# (Not -O3: GCC 12 warns falsely in std::string at -O3, and warnings are errors.)
run: probe-deps
	[ -f $(BUILD)/build.ninja ] || \
	  cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DMEDIA_CAP_PROBE_ONLY=ON
	ninja -C $(BUILD) -j$(JOBS) media-capabilities
	./$(BUILD)/media-capabilities probe

# The sanitizers' build is unoptimised, with line tables only (-g1): the sanitizers' reports
# name file and line from them, and they compile faster than full debugging information.
$(SAN_BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -G Ninja -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMEDIA_CAP_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1

test-sanitize: deps $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD) -j$(JOBS) all unit_tests
	tests/peertube/fetch-peertube-types
	cd $(SAN_BUILD) && ctest --output-on-failure -j$(JOBS)
	tests/check-default-dirs $(SAN_BUILD)

# check-tree holds the tree to the house rules a tool can check (CONTRIBUTING.md).
check-tree: build
	$(call install_missing,$(FORMAT_PACKAGES))
	tools/check-tree
	tools/unity-names $(BUILD)

# check is the inner loop: the ordinary build, its unit tests (the target unit_tests, which
# `make build` leaves out) and the tree's checks; no sanitizer build and no control plane.
check: check-tree
	ninja -C $(BUILD) -j$(JOBS) unit_tests
	tests/peertube/fetch-peertube-types
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	tests/check-default-dirs $(BUILD)

# make test runs the unit tests once, under ASan and UBSan, which check more than the
# ordinary build can; the ordinary build (the product, the fakes, the benchmarks) then runs
# against the real control plane and the real PeerTube. `make check` runs the unit tests in
# the ordinary build.
# Each stage prints its time as it ends (tools/timed), and all of them again at the end.
# Without a PeerTube source the other stages run, and the PeerTube stage is NOT RUN: make test
# then says what is missing and fails.
export STAGE_TIMES ?= $(CURDIR)/$(BUILD)-stage-times
test:
	@rm -f $(STAGE_TIMES)
	@tools/timed packages $(MAKE) --no-print-directory deps prefetch
	@tools/timed build $(MAKE) --no-print-directory build
	@tools/timed tree-checks $(MAKE) --no-print-directory check-tree
	@tools/timed monitoring $(MAKE) --no-print-directory test-monitoring
	@tools/timed sanitizer-build-and-tests $(MAKE) --no-print-directory test-sanitize
	@tools/timed cluster $(MAKE) --no-print-directory test-cluster
	@if reason=$$($(CHECK_KIT) --brief $(KIT_ARGS)); then \
	  tools/timed peertube $(MAKE) --no-print-directory test-peertube; \
	else \
	  $(CHECK_KIT) $(KIT_ARGS); tools/timed --not-run peertube "$$reason"; \
	  echo "make test: the PeerTube stage did not run"; cat $(STAGE_TIMES); exit 1; \
	fi
	@echo "make test: every stage passed"; cat $(STAGE_TIMES)

# The PeerTube stages build the real PeerTube server 7.2.1 and its official runner 0.1.3 from
# PeerTube's source, which PEERTUBE_SRC names: a source tarball, a source folder, or a URL with
# PEERTUBE_SHA256 (the tarball's SHA-256, which a tarball is checked against too when set).
# Without PEERTUBE_SRC, make takes the PeerTube kit's minimal source tarball, at PEERTUBE_KIT or
# beside the clone, checked against the SHA-256 recorded here. Set them on make's command
# line or in the environment. peertube builds the source once into ~/.cache/media-capabilities.
PEERTUBE_KIT_DEFAULT := $(abspath $(CURDIR)/../shared/peertube)
PEERTUBE_KIT ?= $(PEERTUBE_KIT_DEFAULT)
PEERTUBE_KIT_TARBALL = \
	$(abspath $(or $(PEERTUBE_KIT),$(PEERTUBE_KIT_DEFAULT)))/peertube-7.2.1-min.tar.gz
PEERTUBE_KIT_SHA256 := 1c533c60853bdfa67f71026f66d10ed1b6232627dacc5f0e144a78f759f25958
ifeq ($(PEERTUBE_SRC),)
PEERTUBE_SRC = $(PEERTUBE_KIT_TARBALL)
PEERTUBE_SHA256 ?= $(PEERTUBE_KIT_SHA256)
endif
PEERTUBE_CACHE ?= $(HOME)/.cache/media-capabilities/peertube-7.2.1-build
CHECK_KIT = env PEERTUBE_SHA256="$(PEERTUBE_SHA256)" tests/peertube/check-kit
KIT_ARGS = "$(PEERTUBE_SRC)" "$(PEERTUBE_KIT_TARBALL)"
BUILD_PEERTUBE = env PEERTUBE_SHA256="$(PEERTUBE_SHA256)" tests/peertube/build-peertube \
	"$(PEERTUBE_SRC)" "$(PEERTUBE_CACHE)"

# peertube-kit-check says what is wrong with the source, and how to give one, before anything
# runs.
peertube-kit-check:
	@$(CHECK_KIT) $(KIT_ARGS)

peertube: peertube-kit-check
	$(call install_missing,$(PEERTUBE_PACKAGES))
	$(BUILD_PEERTUBE)

# prefetch starts the control plane's and PeerTube's builds in the background at the
# lowest priority, so that their downloads and compiles fill what the C++ builds and the tests
# leave idle. test-cluster and test-peertube run the same scripts later, which wait on the same
# locks and find the builds done (or redo what failed); the logs are under $(BUILD).
# Without a PeerTube source it starts no PeerTube build, and says so in one line.
prefetch:
	$(call install_missing,$(PEERTUBE_PACKAGES))
	@mkdir -p $(BUILD)
	@nohup nice -n 19 sh -c 'tests/cluster/build-control-plane && \
	  (cd tests/cluster && go test -count=1 -run "^$$" ./...) && \
	  tests/helm/build-helm' >$(BUILD)/control-plane-build.log 2>&1 &
	@if reason=$$($(CHECK_KIT) --brief $(KIT_ARGS)); then \
	  nohup nice -n 19 $(BUILD_PEERTUBE) >$(BUILD)/peertube-build.log 2>&1 & \
	else \
	  echo "prefetch: no PeerTube build: $$reason"; \
	fi

# test-peertube runs the worker in PeerTube's path end to end (tests/peertube/README.md): the
# real server and runner, the worker on the fake NVIDIA GPU (and on the fake Intel GPU),
# Debian's ffmpeg; then the pool manager over three such workers and a burst of uploads, and
# with an Intel worker beside them under vendor_disabled; then the pool manager in Kubernetes
# mode, on the real control plane of tests/cluster, which is built first as test-cluster builds
# it (the binaries cached in ~/.cache/media-capabilities). The worker's and the pool's pages are
# opened in headless Chromium on the way (browser-deps).
E2E_ARGS = --build $(BUILD) --cache $(PEERTUBE_CACHE)
test-peertube: peertube-kit-check build
	@tools/timed peertube-build $(MAKE) --no-print-directory peertube
	@tools/timed browser-deps $(MAKE) --no-print-directory browser-deps
	$(call install_missing,openssl)
	@tools/timed control-plane-build sh -c 'tests/cluster/build-control-plane >/dev/null'
	@tools/timed worker-e2e python3 tests/peertube/worker_e2e.py $(E2E_ARGS)
	@tools/timed pool-e2e python3 tests/peertube/pool_e2e.py $(E2E_ARGS)
	@tools/timed pool-kube-e2e python3 tests/peertube/pool_kube_e2e.py $(E2E_ARGS)

# test-monitoring checks deploy/monitoring/ (docs/monitoring.md): promtool's rule checks and unit
# tests of every alert, and every metric and label the rules and dashboards name, against the
# recorded scrapes and against scrapes the built binaries give now (record_scrapes.py runs them on
# the fake GPUs). promtool is Debian's, unpacked once into ~/.cache/media-capabilities.
MONITORING_SCRAPES = $(BUILD)/monitoring-scrapes
test-monitoring: build
	tests/deploy/monitoring/check-monitoring
	tests/deploy/monitoring/record_scrapes.py --build $(BUILD) --out $(MONITORING_SCRAPES)
	tests/deploy/monitoring/check-monitoring $(MONITORING_SCRAPES)/*.prom

# test-cluster brings up the real upstream control plane (tests/cluster/README.md) and runs its
# smoke test. Then it checks deploy/ against it (tests/deploy/check-against-apiserver) and runs
# these tests against it:
#  - the API client's (tests/common/kube/kube_client_cluster_test.cpp);
#  - the pool manager's Kubernetes side (tests/pool/kube/pool_kube_cluster_test.cpp);
#  - the doctor's cluster checks (tests/dra/doctor/doctor_cluster_test.cpp).
# Then the Helm chart's tests (tests/helm/check-chart) on a control plane of their own: lint,
# every ci/ scenario through a server-side dry run, the kustomize folders against the chart,
# and a real install, upgrade, rollback and uninstall.
# Its first run builds Kubernetes and Helm from the Go module proxy and caches the binaries in
# ~/.cache/media-capabilities.
# The Go tests run the built agent (build/media-capabilities and its module) and the fake
# drivers, so the whole build comes first, and the three C++ test programs above.
CLUSTER_TESTS := tests/kube_cluster_tests tests/pool/kube/pool_kube_cluster_tests \
	tests/dra/doctor/doctor_cluster_tests
test-cluster: build
	ninja -C $(BUILD) -j$(JOBS) $(notdir $(CLUSTER_TESTS))
	$(call install_missing,openssl)
	@tools/timed control-plane-build sh -c 'tests/cluster/build-control-plane >/dev/null'
	@tools/timed cluster-go-tests sh -c \
	  'cd tests/cluster && go test -timeout 60m -count=1 -parallel 8 ./...'
	@dir=$$(mktemp -d); trap 'tests/cluster/stop-control-plane "$$dir"; rm -rf "$$dir"' EXIT; \
	  tests/cluster/start-control-plane "$$dir" && tests/deploy/check-against-apiserver "$$dir" && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/kube_cluster_tests && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/pool/kube/pool_kube_cluster_tests && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/dra/doctor/doctor_cluster_tests
	@tools/timed helm-build sh -c 'tests/helm/build-helm >/dev/null'
	@dir=$$(mktemp -d); trap 'tests/cluster/stop-control-plane "$$dir"; rm -rf "$$dir"' EXIT; \
	  tests/cluster/start-control-plane "$$dir" && tools/timed helm-chart tests/helm/check-chart "$$dir"

# bench runs the benchmarks one after another, so that none weighs another. It goes product by
# product, in bench/CMakeLists.txt's order; `make bench-<product>` runs one product's alone.
# The capability probe and the DRA driver.
define bench_probe
	./$(BUILD)/bench/probe_vs_vainfo
	bench/dra/agent-bench $(BUILD)
	./$(BUILD)/bench/tls_client_floor
endef
# The transcoding worker.
define bench_worker
	./$(BUILD)/bench/worker_sampler_cost 20
	./$(BUILD)/bench/worker_self_test_vs_bare $(BUILD)/media-capabilities \
	  $(BUILD)/tests/fakenv/fakenv_stage $(CURDIR)/tests/fakenv/records/ada-geforce-rtx4090.json 2
	./$(BUILD)/bench/wrapper_startup 200
	./$(BUILD)/bench/gate_round_trip
	bench/worker/worker-idle $(BUILD) 60
endef
# The pool manager.
define bench_pool
	./$(BUILD)/bench/pool_vs_autoscalers
	./$(BUILD)/bench/pool_api_requests
	./$(BUILD)/bench/pool_first_promotion
	bench/pool/pool-idle $(BUILD) 60
endef
bench: build
	$(bench_probe)
	$(bench_worker)
	$(bench_pool)
bench-probe: build
	$(bench_probe)
bench-worker: build
	$(bench_worker)
bench-pool: build
	$(bench_pool)

$(FUZZ_BUILD)/build.ninja: CMakeLists.txt | fuzz-deps
	CC=clang CXX=clang++ cmake -G Ninja -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug \
	  -DMEDIA_CAP_FUZZ=ON

# fuzz runs every libFuzzer target for FUZZ_SECONDS each. The committed corpora are its
# seeds; what it finds goes to a corpus of its own under the fuzz build, first in the list,
# which is where libFuzzer writes, so the committed ones never change.
FUZZ_SECONDS ?= 60
fuzz: fuzz-deps $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD) -j$(JOBS) fuzz_targets
	@for target in $(FUZZ_BUILD)/fuzz/fuzz_*; do \
	  [ -x "$$target" ] || continue; \
	  found=$(FUZZ_BUILD)/found/$$(basename "$$target"); mkdir -p "$$found"; \
	  echo "fuzz: $$target"; \
	  "$$target" -max_total_time=$(FUZZ_SECONDS) -artifact_prefix="$$found/" "$$found" \
	    $$(cat "$$target.corpus") || exit 1; \
	done

# format applies .clang-format to the C++ sources (generated code and recorded data excepted),
# and black to the Python of tests/ and tools/ (pyproject.toml names the files and the width).
format:
	$(call install_missing,$(FORMAT_PACKAGES))
	git ls-files '*.cpp' '*.h' | xargs clang-format -i
	black -q tests tools

docs: build
	./$(BUILD)/media-capabilities docs attributes > docs/reference/attributes.md

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
