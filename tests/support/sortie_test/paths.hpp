#pragma once
// The paths a test binary needs (force-included into every test file, see sortie_add_test_suite).
// Their values are in one generated file per suite (<build>/tests/<area>/sortie_test_paths.cpp),
// not in compile definitions: a definition that holds a checkout's path makes every file of the
// suite compile differently in each checkout, so ccache could never share them (a CI clone, a
// worktree). The macros keep their old spelling:
//   SORTIE_SOURCE_DIR     the repository's root
//   SORTIE_TEST_DATA_DIR  tests/<area>/ of this suite
//   SORTIE_FOMAP_CORPUS   the FOnline map corpus found at configure time ("" when none)
//   SORTIE_BIN            the built `sortie` binary ("" in a tree without it)
//   SORTIE_VIEWER_BIN     the built `sortie-viewer` binary ("" in a tree without it)
extern const char sortie_test_source_dir[];
extern const char sortie_test_data_dir[];
extern const char sortie_test_fomap_corpus[];
extern const char sortie_test_sortie_bin[];
extern const char sortie_test_viewer_bin[];
