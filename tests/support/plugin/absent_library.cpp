// SPDX-License-Identifier: MIT
// A library that the test plugin needs and that is never where the loader looks: dlopen of the
// plugin then fails on a dependency, as a plugin whose LibTorch is not installed does.
extern "C" int diffuscopeAbsentLibrary() { return 1; }
