#!/usr/bin/env bash
# Installs what is missing, builds Release, runs every test; then the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer in a second build directory (clang), with the
# readers' fuzzers.
set -euo pipefail
cd "$(dirname "$0")"
# Each stage's heading carries the minutes since the start: where the run's time goes.
stage() { printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
trap 'stage "done (exit $?)"' EXIT
stage "Dependencies (apt-get, what is missing)"
source .ci/deps.sh
diffuscope_install_deps

jobs=$(nproc 2>/dev/null || echo 2)
export QT_QPA_PLATFORM=offscreen

stage "Release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
stage "Tests (Release)"
ctest --test-dir build -j"$jobs" --output-on-failure

stage "Installed tree: cmake --install into a temporary prefix, run with the sources out of reach"
install_check() {
    local tmp
    tmp=$(mktemp -d)
    cmake --install build --prefix "$tmp/prefix" >/dev/null
    # The binary must not know the source tree: its data come from prefix/share/diffuscope.
    if grep -q "$PWD/resources" "$tmp/prefix/bin/diffuscope"; then
        echo "the installed binary holds the path $PWD/resources" >&2
        exit 1
    fi
    mkdir -m 700 "$tmp/run"
    local run=(env -i PATH=/usr/bin:/bin HOME="$tmp" XDG_RUNTIME_DIR="$tmp/run" QT_QPA_PLATFORM=offscreen
        "$tmp/prefix/bin/diffuscope")
    (
        cd "$tmp"
        "${run[@]}" help >/dev/null
        # Without its share/diffuscope the digits are refused, naming where they were looked for.
        mv "$tmp/prefix/share/diffuscope" "$tmp/moved"
        if "${run[@]}" train --process gaussian --data digits --steps 1 --out "$tmp/y.safetensors" \
            2>"$tmp/err"; then
            echo "train found digits without share/diffuscope" >&2
            exit 1
        fi
        grep -q "$tmp/prefix/share/diffuscope/data/digits.csv.gz" "$tmp/err"
        mv "$tmp/moved" "$tmp/prefix/share/diffuscope"
        "${run[@]}" train --process gaussian --data digits --steps 5 --batch 8 \
            --arch mlp:width=8,depth=1 --out "$tmp/x.safetensors" >/dev/null
        "${run[@]}" info "$tmp/prefix/share/diffuscope/models/moons-gaussian.safetensors" >/dev/null
        # TorchScript models through the LibTorch plugin installed in prefix/lib/diffuscope.
        "${run[@]}" info "$tmp/prefix/share/diffuscope/models/digits-unet.pt" >/dev/null
        # Without the plugin (the package diffuscope alone) running it names the package to install.
        mv "$tmp/prefix/lib/diffuscope" "$tmp/moved-plugin"  # LibTorch is in test.sh's deps
        if "${run[@]}" gamma --data digits --samples 2 --out "$tmp/gamma.csv" \
            --model "$tmp/prefix/share/diffuscope/models/digits-unet.pt" 2>"$tmp/err"; then
            echo "a .pt ran without the plugin" >&2
            exit 1
        fi
        grep -q "install the package diffuscope-torch" "$tmp/err"
        mv "$tmp/moved-plugin" "$tmp/prefix/lib/diffuscope"
        "${run[@]}" export --example 3 --view schedule --out "$tmp/x.png" >/dev/null
        test -s "$tmp/x.safetensors" && test -s "$tmp/x.png"
    )
    rm -rf "$tmp"
    echo "installed tree OK"
}
install_check

stage "Debian packages (cpack -G DEB: diffuscope and diffuscope-torch; checked, not installed)"
rm -f build/diffuscope_*.deb build/diffuscope-torch_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(ls build/diffuscope_*_*.deb)
torch_deb=$(ls build/diffuscope-torch_*_*.deb)
dpkg-deb --info "$deb" | grep -E "^ (Package|Version|Depends|Suggests|Section):"
dpkg-deb --info "$torch_deb" | grep -E "^ (Package|Version|Depends|Section):"
contents=$(dpkg-deb --contents "$deb")
for file in usr/bin/diffuscope usr/share/applications/diffuscope.desktop \
    usr/share/mime/packages/diffuscope.xml usr/share/icons/hicolor/scalable/apps/diffuscope.svg \
    usr/share/diffuscope/data/digits.csv.gz usr/share/diffuscope/models/moons-gaussian.safetensors \
    usr/share/diffuscope/models/digits-gaussian.safetensors \
    usr/share/diffuscope/models/digits-categorical-l4.safetensors \
    usr/share/diffuscope/models/digits-unet.pt; do
    grep -q " \./$file\$" <<<"$contents" || { echo "$deb lacks $file" >&2; exit 1; }
done
# The program's package installs without LibTorch; the plugin's brings it, for this version only.
if grep -q "libdiffuscope_torch" <<<"$contents"; then
    echo "$deb holds the LibTorch plugin" >&2
    exit 1
fi
if dpkg-deb --field "$deb" Depends | grep -qi torch; then
    echo "$deb depends on LibTorch: $(dpkg-deb --field "$deb" Depends)" >&2
    exit 1
fi
torch_contents=$(dpkg-deb --contents "$torch_deb")
grep -q " \./usr/lib/diffuscope/libdiffuscope_torch.so\$" <<<"$torch_contents" ||
    { echo "$torch_deb lacks usr/lib/diffuscope/libdiffuscope_torch.so" >&2; exit 1; }
version=$(dpkg-deb --field "$deb" Version)
torch_depends=$(dpkg-deb --field "$torch_deb" Depends)
grep -q "diffuscope (= $version)" <<<"$torch_depends" && grep -q "libtorch" <<<"$torch_depends" ||
    { echo "$torch_deb: Depends: $torch_depends" >&2; exit 1; }
echo "$deb: $(du -h "$deb" | cut -f1); $torch_deb: $(du -h "$torch_deb" | cut -f1)"

stage "ASan + UBSan build (clang), without LibTorch, with the readers' fuzzers"
# -O1 with line tables only: sanitizer reports keep file:line, and the build stays quick. Clang
# compiles this build in about half GCC's time, and links the libFuzzer targets against the same
# library (its readers compiled with coverage), so core is compiled once for both.
# LibTorch is not built with the sanitizers; this build is the one without it, so CI also checks
# that such a build reads a .pt's contract and refuses the model with the reason.
cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_FLAGS="-O1 -g1" -DDIFFUSCOPE_ENABLE_ASAN=ON -DDIFFUSCOPE_BUILD_BENCHMARKS=OFF \
    -DDIFFUSCOPE_WITH_TORCH=OFF -DDIFFUSCOPE_RELEASE_ONLY_TESTS=OFF \
    -DDIFFUSCOPE_BUILD_FUZZERS=ON -DDIFFUSCOPE_FUZZ_SECONDS=10 >/dev/null
cmake --build build-asan -j"$jobs"
stage "Tests (ASan + UBSan; without the release-only numerics, not built here, see tests/CMakeLists.txt), and each fuzzer for 10 s"
ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE release-only
# What the fuzzers did (libFuzzer's own counts, from CTest's log).
awk '/ Test: fuzz_/ { name = $3 } /number_of_executed_units/ { runs = $2 }
     /average_exec_per_sec/ { printf "%s: %s executions (%s/s), no failure\n", name, runs, $2 }' \
    build-asan/Testing/Temporary/LastTest.log
