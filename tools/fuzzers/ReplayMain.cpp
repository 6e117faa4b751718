//===- ReplayMain.cpp - Run a fuzz target on files, without libFuzzer -----===//
//
// Builds without STENCIL_ENABLE_FUZZERS (g++, or clang without libFuzzer)
// link this main instead, so that every build replays the saved crashes:
//   stencil-opt-fuzzer test/fuzz/crashes/stencil-opt-fuzzer/*
// Arguments starting with '-' (libFuzzer's flags) are ignored.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-')
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(argv[i]);
    if (!file) {
      llvm::errs() << argv[0] << ": cannot read '" << argv[i]
                   << "': " << file.getError().message() << "\n";
      status = 1;
      continue;
    }
    llvm::StringRef bytes = (*file)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
    llvm::outs() << "ran " << argv[i] << "\n";
  }
  return status;
}
