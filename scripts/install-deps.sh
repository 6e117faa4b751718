#!/usr/bin/env bash
# Installs what building and testing stencil-mlir needs on Debian bookworm
# (LLVM/MLIR/Clang 22 from Debian). Does nothing for packages already there,
# so it is cheap to run before every build.
set -euo pipefail

packages=(
  cmake ninja-build ccache python3 groff-base bsdutils
  clang-22 libclang-rt-22-dev libclang-22-dev libclang-cpp22-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libomp-22-dev
  openmpi-bin libopenmpi-dev
  lld-22 mesa-vulkan-drivers libvulkan-dev vulkan-validationlayers
  libamdhip64-dev rocm-device-libs
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "Installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
