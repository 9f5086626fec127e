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
	python3-jsonschema python3-prometheus-client \
	libgnutls28-dev openssl
FUZZ_PACKAGES := clang libclang-rt-14-dev
# What the real PeerTube server, its database and cache, and the official runner need for the
# end-to-end tests (Node 20 comes with the machine, or the kit takes it from npm).
PEERTUBE_PACKAGES := postgresql redis-server rsync make g++ python3 git curl
FORMAT_PACKAGES := clang-format

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The machine image installs Go in /usr/local/go, on PATH only for interactive shells; CI's
# shell is not one.
export PATH := $(PATH):/usr/local/go/bin

.PHONY: all deps prefetch probe-deps build run check test test-sanitize test-cluster peertube test-peertube bench fuzz fuzz-deps format docs clean

all: build

# deps installs only what is missing, so that it costs a few dpkg look-ups once done.
define install_missing
	@missing=$$(for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

probe-deps:
	$(call install_missing,$(PROBE_PACKAGES))

fuzz-deps: deps
	$(call install_missing,$(FUZZ_PACKAGES))

# The full build configures everything, whatever `make run` configured before it. Its debugging
# information is line tables only (-g1): enough for a backtrace, and full information for the
# JSON templates cost some 40 % of each file's compile time.
build: deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DMEDIA_CAP_PROBE_ONLY=OFF
	ninja -C $(BUILD) -j$(JOBS)

# run builds the binary alone: on a fresh build directory, configured with the probe's and the
# doctor's subcommands only (no agent module, no worker or pool, no tests;
# src/cli/transcoding_subcommands.h); on one that `make build` configured, the whole binary's targets. It builds as the full build
# does (-O2) but without debugging information: writing it for the JSON templates costs about a
# third of each file's compile time, and a first look at the probe needs no debugger. (Not -O3:
# GCC 12 warns falsely in std::string at -O3, and warnings are errors.)
run: probe-deps
	[ -f $(BUILD)/build.ninja ] || \
	  cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DMEDIA_CAP_PROBE_ONLY=ON
	ninja -C $(BUILD) -j$(JOBS) media-capabilities
	./$(BUILD)/media-capabilities probe

# The sanitizers' build is unoptimised, with line tables only (-g1): the sanitizers' reports
# name file and line from them, and the full debugging information cost about a third of each
# file's compile time (three unity batches, 20-22 s with -g against 15 s with -g1, one core).
$(SAN_BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -G Ninja -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMEDIA_CAP_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1

test-sanitize: deps $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD) -j$(JOBS)
	tests/peertube/fetch-peertube-types
	cd $(SAN_BUILD) && ctest --output-on-failure -j$(JOBS)
	tests/check-default-dirs $(SAN_BUILD)

# check is the inner loop: the ordinary build and its tests, with no sanitizer rebuild and no
# control plane.
check: build
	$(call install_missing,$(FORMAT_PACKAGES))
	tools/check-tree
	tools/unity-names $(BUILD)
	tests/peertube/fetch-peertube-types
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	tests/check-default-dirs $(BUILD)

# The tests run twice, in the ordinary build and under ASan and UBSan, and then against the
# real control plane.
# Each stage prints its time as it ends (tools/timed), and all of them again at the end.
export STAGE_TIMES ?= $(CURDIR)/$(BUILD)-stage-times
test:
	@rm -f $(STAGE_TIMES)
	@tools/timed packages $(MAKE) --no-print-directory deps prefetch
	@tools/timed build $(MAKE) --no-print-directory build
	@tools/timed tests $(MAKE) --no-print-directory check
	@tools/timed sanitizer-build-and-tests $(MAKE) --no-print-directory test-sanitize
	@tools/timed cluster $(MAKE) --no-print-directory test-cluster
	@tools/timed peertube $(MAKE) --no-print-directory test-peertube
	@echo "make test: every stage passed"; cat $(STAGE_TIMES)

# The PeerTube kit: the real PeerTube server's source (7.2.1) with the official runner (0.1.3)
# and the scripts that build, start and stop them. peertube builds them once into
# ~/.cache/media-capabilities (some 4 minutes on a fresh machine, a fraction of a second after).
PEERTUBE_KIT ?= $(CURDIR)/../shared/peertube
PEERTUBE_CACHE ?= $(HOME)/.cache/media-capabilities/peertube-7.2.1
peertube:
	$(call install_missing,$(PEERTUBE_PACKAGES))
	tests/peertube/build-peertube $(PEERTUBE_KIT) $(PEERTUBE_CACHE)

# prefetch starts the control plane's and the PeerTube kit's builds in the background at the
# lowest priority, so that their downloads and compiles fill what the C++ builds and the tests
# leave idle. test-cluster and test-peertube run the same scripts later, which wait on the same
# locks and find the builds done (or redo what failed); the logs are under $(BUILD).
prefetch:
	$(call install_missing,$(PEERTUBE_PACKAGES))
	@mkdir -p $(BUILD)
	@nohup nice -n 19 sh -c 'tests/cluster/build-control-plane && \
	  cd tests/cluster && go test -count=1 -run "^$$" ./...' >$(BUILD)/control-plane-build.log 2>&1 &
	@nohup nice -n 19 tests/peertube/build-peertube $(PEERTUBE_KIT) $(PEERTUBE_CACHE) \
	  >$(BUILD)/peertube-build.log 2>&1 &

# test-peertube runs the worker in PeerTube's path end to end (tests/peertube/README.md): the
# real server and runner, the worker on the stand-in NVIDIA GPU (and on the stand-in Intel GPU),
# Debian's ffmpeg; then the pool manager over three such workers and a burst of uploads, and
# with an Intel worker beside them under vendor_disabled; then the pool manager in Kubernetes
# mode, on the real control plane of tests/cluster, which is built first as test-cluster builds
# it (the binaries cached in ~/.cache/media-capabilities; 8 to 10 minutes the first time).
E2E_ARGS = --build $(BUILD) --kit $(PEERTUBE_KIT) --cache $(PEERTUBE_CACHE)
test-peertube: build
	@tools/timed peertube-kit $(MAKE) --no-print-directory peertube
	$(call install_missing,openssl)
	@tools/timed control-plane-build sh -c 'tests/cluster/build-control-plane >/dev/null'
	@tools/timed worker-e2e python3 tests/peertube/worker_e2e.py $(E2E_ARGS)
	@tools/timed pool-e2e python3 tests/peertube/pool_e2e.py $(E2E_ARGS)
	@tools/timed pool-kube-e2e python3 tests/peertube/pool_kube_e2e.py $(E2E_ARGS)

# test-cluster brings up the real upstream control plane (tests/cluster/README.md), runs its
# smoke test, then checks deploy/ against it (tests/deploy/check-against-apiserver) and runs the
# API client's tests against it (tests/common/kube/kube_client_cluster_test.cpp) and the pool manager's
# Kubernetes side (tests/pool/kube/pool_kube_cluster_test.cpp) and the doctor's cluster checks
# (tests/dra/doctor/doctor_cluster_test.cpp); its first run builds
# Kubernetes from the Go module proxy, 8 to 10 minutes on two cores, and caches the binaries in
# ~/.cache/media-capabilities.
# The Go tests run the built agent (build/media-capabilities and its module) and the fake
# drivers, so the whole build comes first.
test-cluster: build
	$(call install_missing,openssl)
	@tools/timed control-plane-build sh -c 'tests/cluster/build-control-plane >/dev/null'
	@tools/timed cluster-go-tests sh -c 'cd tests/cluster && go test -timeout 60m -count=1 -parallel 8 ./...'
	@dir=$$(mktemp -d); trap 'tests/cluster/stop-control-plane "$$dir"; rm -rf "$$dir"' EXIT; \
	  tests/cluster/start-control-plane "$$dir" && tests/deploy/check-against-apiserver "$$dir" && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/kube_cluster_tests && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/pool/kube/pool_kube_cluster_tests && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/dra/doctor/doctor_cluster_tests

bench: build
	./$(BUILD)/bench/probe_vs_vainfo
	bench/dra/agent-bench $(BUILD)
	./$(BUILD)/bench/tls_client_floor
	./$(BUILD)/bench/pool_vs_autoscalers
	./$(BUILD)/bench/worker_sampler_cost 20
	./$(BUILD)/bench/worker_self_test_vs_bare $(BUILD)/media-capabilities \
	  $(BUILD)/tests/fakenv/fakenv_stage $(CURDIR)/tests/fakenv/records/ada-geforce-rtx4090.json 2
	./$(BUILD)/bench/wrapper_startup 200
	./$(BUILD)/bench/gate_round_trip
	bench/worker/worker-idle $(BUILD) 60
	./$(BUILD)/bench/pool_api_requests
	./$(BUILD)/bench/pool_first_promotion
	bench/pool/pool-idle $(BUILD) 60

$(FUZZ_BUILD)/build.ninja: CMakeLists.txt | fuzz-deps
	CC=clang CXX=clang++ cmake -G Ninja -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMEDIA_CAP_FUZZ=ON

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
	  "$$target" -max_total_time=$(FUZZ_SECONDS) -artifact_prefix="$$found/" "$$found" $$(cat "$$target.corpus") || exit 1; \
	done

# format applies .clang-format to the C++ sources (generated code and recorded data excepted).
format:
	$(call install_missing,$(FORMAT_PACKAGES))
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

docs: build
	./$(BUILD)/media-capabilities docs attributes > docs/reference/attributes.md

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
