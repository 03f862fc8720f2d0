#!/usr/bin/env bash
# Installs what Diffuscope needs to build, test and run, with Debian 12's apt-get.
# Sourced by ./run.sh and ./test.sh; does nothing when everything is already installed.
DIFFUSCOPE_PACKAGES=(
    build-essential cmake ninja-build pkg-config clang
    lld  # LLVM's linker: links the tests in a third of GNU ld's time
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    libeigen3-dev libbenchmark-dev libgif-dev zlib1g-dev
    libomp-dev  # LLVM's OpenMP runtime: the core's parallel loops (GCC compiles, libomp runs)
    nlohmann-json3-dev  # JSON reading and writing everywhere (core/io, core/project, the CLI)
    fonts-dejavu-core xvfb xauth
    qt6-l10n-tools  # lrelease compiles translations/*.ts; lupdate checks them in the tests
    fonts-ipafont-gothic  # a CJK font: the Japanese interface and its exported figures
    dpkg-dev file  # cpack -G DEB: dpkg-shlibdeps works out the package's Depends
    poppler-utils  # pdftotext: the tests read the exported PDFs' text back
    libtorch-dev  # TorchScript (.pt) models, through LibTorch (CPU)
    python3-torch  # python/diffuscope_torch, its tests, and the test models of the C++ tests
)

diffuscope_install_deps() {
    local missing=()
    local package
    for package in "${DIFFUSCOPE_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    echo "Installing: ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
