# The agent's image: `docker build -t REGISTRY/media-capabilities:TAG .` from the repository's
# root, then point deploy/ at it (docs/install.md).
#
# The build stage is the README's Debian 12 machine: `make deps` installs the Makefile's
# packages and `make build` builds. The runtime stage is Debian 12 slim with the libraries the
# binary links and the VA-API drivers it asks: a GPU whose VA driver is not in the image
# publishes every capability false, so the image carries every free one Debian ships.
# Nothing NVIDIA is in it: NVIDIA's libraries are loaded at run time from the host's driver
# (through the NVIDIA container toolkit), as docs/probe/nvidia.md explains.

FROM debian:bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends make \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The packages first, in a layer of their own, so that a change to the sources does not
# install them again.
COPY Makefile ./
RUN make deps && rm -rf /var/lib/apt/lists/*
COPY . .
# A build directory of its own: a build/ copied from a working tree holds a CMake cache of
# another path, which CMake refuses.
RUN make build BUILD=/build

FROM debian:bookworm-slim
# libva2, libva-drm2 (and libdrm2 through them), libyaml-cpp0.7: what the binary links;
# libnghttp2-14 and libprotobuf-lite32: what the kubelet plugin (src/dra/plugin) links; libssl3
# and ca-certificates: TLS for the API client (src/common/kube) and the PeerTube client (src/common/http),
# opened at the first https URL.
# pci.ids: the PCI names of the `name` attribute. The VA drivers: intel-media-va-driver (iHD,
# Intel from Broadwell on; Debian's free build), i965-va-driver (older Intel), mesa-va-drivers
# (AMD's radeonsi, and nouveau).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libva2 libva-drm2 libyaml-cpp0.7 libnghttp2-14 libprotobuf-lite32 libssl3 ca-certificates pci.ids \
      intel-media-va-driver i965-va-driver mesa-va-drivers \
 && rm -rf /var/lib/apt/lists/*
# The agent module and the pool's Kubernetes module go beside the binary, which is where
# `agent` and `pool run` look for them.
COPY --from=build /build/media-capabilities /build/media-capabilities-agent.so /build/media-capabilities-pool-kube.so \
     /usr/local/bin/
# A user of its own for `probe` and for running the image by hand. The DaemonSet runs the
# agent as uid 0 with every capability dropped, because the kubelet's plugin directories
# belong to root (deploy/daemonset.yaml explains); that is its choice, made in the manifest.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin media
USER 10001
ENTRYPOINT ["/usr/local/bin/media-capabilities"]
CMD ["probe"]
