// SPDX-License-Identifier: MIT
// A plugin linked to absent_library.cpp's library, without a run path to find it.
extern "C" int diffuscopeAbsentLibrary();
extern "C" int diffuscopeNeedsAbsentLibrary() { return diffuscopeAbsentLibrary(); }
