# The README's two commands, `make run` and `make test`, work on a fresh Debian 12 machine:
# each first installs the Debian packages the build and the tests need.

BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc)

# Every Debian package the build, the tests and the benchmarks use.
PACKAGES := g++ cmake ninja-build pkg-config \
	libva-dev libva-drm2 libdrm-dev vainfo \
	libpci-dev pci.ids \
	nlohmann-json3-dev libyaml-cpp-dev libcli11-dev \
	libcurl4-openssl-dev \
	libffmpeg-nvenc-dev \
	libgtest-dev libgmock-dev libbenchmark-dev \
	libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler \
	ffmpeg python3-jsonschema python3-prometheus-client
FUZZ_PACKAGES := clang libclang-rt-14-dev

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The machine image installs Go in /usr/local/go, on PATH only for interactive shells; CI's
# shell is not one.
export PATH := $(PATH):/usr/local/go/bin

.PHONY: all deps build run test test-sanitize test-cluster bench fuzz fuzz-deps docs clean

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

fuzz-deps: deps
	$(call install_missing,$(FUZZ_PACKAGES))

$(BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j$(JOBS)

run: build
	./$(BUILD)/media-capabilities probe

$(SAN_BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -G Ninja -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMEDIA_CAP_SANITIZE=ON

test-sanitize: deps $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD) -j$(JOBS)
	cd $(SAN_BUILD) && ctest --output-on-failure -j$(JOBS)

# The tests run twice, in the ordinary build and under ASan and UBSan, and then against the
# real control plane.
test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory test-cluster

# test-cluster brings up the real upstream control plane (tests/cluster/README.md), runs its
# smoke test, then checks deploy/ against it (tests/deploy/check-against-apiserver) and runs the
# API client's tests against it (tests/kube/kube_client_cluster_test.cpp); its first run builds
# Kubernetes from the Go module proxy, 8 to 10 minutes on two cores, and caches the binaries in
# ~/.cache/media-capabilities.
# The Go tests run the built agent (build/media-capabilities and its module) and the fake
# drivers, so the whole build comes first.
test-cluster: build
	$(call install_missing,openssl)
	cd tests/cluster && go test -timeout 60m -count=1 ./...
	@dir=$$(mktemp -d); trap 'tests/cluster/stop-control-plane "$$dir"; rm -rf "$$dir"' EXIT; \
	  tests/cluster/start-control-plane "$$dir" && tests/deploy/check-against-apiserver "$$dir" && \
	  MEDIA_CAP_CLUSTER_DIR="$$dir" $(BUILD)/tests/kube_cluster_tests

bench: build
	./$(BUILD)/bench/probe_vs_vainfo
	bench/agent-bench $(BUILD)

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

docs: build
	./$(BUILD)/media-capabilities docs attributes > docs/reference/attributes.md

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
