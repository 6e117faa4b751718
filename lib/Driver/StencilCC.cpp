//===- StencilCC.cpp - pragma C to executable ----------------------------===//
//
// The stencilcc driver: imports the regions of a pragma-C file, attaches a
// schedule to each, lowers them to LLVM IR, compiles that with clang, and
// compiles and links the rest of the program — the C file with each region
// replaced by a call — with clang too.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Driver/StencilCC.h"
#include "Stencil/Driver/Autotune.h"
#include "Stencil/Driver/Schedule.h"

#include "Stencil/Conversion/ImportPragmaC/ImportPragmaC.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"
#include "Stencil/InitAllDialects.h"
#include "Stencil/Support/InstallPaths.h"
#include "Stencil/Support/ToolVersion.h"
#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <optional>

#ifndef STENCIL_CLANG_PATH
#define STENCIL_CLANG_PATH "clang"
#endif
// The runtime archives and the ROCm toolkit below are paths relative to the
// install prefix (resolveInstallPath), unless absolute (a system toolkit).
// Set by CMake: the archive with the run-time checks (runtime/common).
#ifndef STENCIL_SUPPORT_RUNTIME
#define STENCIL_SUPPORT_RUNTIME ""
#endif
// Set by CMake: the archive that starts OpenMP before main (runtime/cpu).
#ifndef STENCIL_OPENMP_RUNTIME
#define STENCIL_OPENMP_RUNTIME ""
#endif
// Set by CMake when runtime/ built its MPI part: the archive, and the MPI
// include directories and libraries, space-separated.
#ifndef STENCIL_MPI_RUNTIME
#define STENCIL_MPI_RUNTIME ""
#endif
#ifndef STENCIL_MPI_LIBRARIES
#define STENCIL_MPI_LIBRARIES ""
#endif
// Set by CMake for each GPU runtime it built (runtime/gpu), with the
// libraries it needs; empty when the SDK was not found.
#ifndef STENCIL_VULKAN_RUNTIME
#define STENCIL_VULKAN_RUNTIME ""
#define STENCIL_VULKAN_LIBRARIES ""
#endif
#ifndef STENCIL_CUDA_RUNTIME
#define STENCIL_CUDA_RUNTIME ""
#define STENCIL_CUDA_LIBRARIES ""
#define STENCIL_CUDA_TOOLKIT ""
#endif
#ifndef STENCIL_HIP_RUNTIME
#define STENCIL_HIP_RUNTIME ""
#define STENCIL_HIP_LIBRARIES ""
#endif
#ifndef STENCIL_ROCM_TOOLKIT
#define STENCIL_ROCM_TOOLKIT ""
#endif

using namespace mlir;
using namespace mlir::stencil;

namespace {

const char *const usage =
    "usage: stencilcc [--help] [--version]\n"
    "                 [--target=cpu|cuda|rocm|vulkan] [--device=NAME|FILE] "
    "[--chip=ARCH]\n"
    "                 [--schedule=wg=WxHxD,t=T,k=K,nt=0|1 | --schedule=cache]\n"
    "                 [--autotune[=SECONDS] [--autotune-args='ARGS']]\n"
    "                 [--mpi [--mpi-ranks=N] [--mpi-devices=NAME,NAME,...]]\n"
    "                 [--frontend=auto|stencil|omp-devices|physis] "
    "[--print-schedule]\n"
    "                 [--emit=mlir|llvm|obj|device|device-isa|exe] "
    "[--save-temps] [-v]\n"
    "                 [-ffp-contract=fast|on|off]\n"
    "                 [-I dir] [-D name[=value]] [-U name] [-std=...] "
    "[-O<n>] [other clang flags]\n"
    "                 prog.c [more.c lib.o lib.a ...] [-o prog]\n";

struct Options {
  std::string target = "cpu";
  /// Empty: host for the CPU, a typical device of each GPU target.
  std::string device;
  /// GPU architecture (sm_90, gfx942); empty: from the device.
  std::string chip;
  /// From --schedule: keys that replace the tuned schedule.
  ScheduleOverrides schedule;
  /// --schedule=cache: each region's schedule from the autotuner's cache.
  bool scheduleFromCache = false;
  /// --autotune[=SECONDS]: the search's budget.
  std::optional<double> autotuneSeconds;
  /// --autotune-args=: what the program gets on each tuning run.
  std::vector<std::string> autotuneArgs;
  bool autotuneArgsGiven = false;
  bool printSchedule = false;
  /// --mpi: distributed regions run across MPI ranks.
  bool mpi = false;
  /// --frontend: the spelling of the directives.
  PragmaFrontend frontend = PragmaFrontend::Auto;
  /// The rank count the exchange-depth model assumes (--mpi-ranks).
  int64_t mpiRanks = 4;
  /// --mpi-devices: one device description per rank, in rank order; the
  /// outermost axis is split among them by stencil-tune-split (seed 002).
  std::vector<std::string> mpiDevices;
  std::string emit = "exe";
  /// The C file whose regions are compiled: the first `.c` input.
  std::string input;
  /// The other inputs (C files without regions, objects, libraries), given
  /// to the host compile and link as they are.
  std::vector<std::string> moreInputs;
  /// Those inputs and the linker flags (-l, -L, -Xlinker, -Wl,), in the
  /// order given, for the link after the host program.
  std::vector<std::string> linkArgs;
  std::string output;
  bool saveTemps = false;
  bool verbose = false;
  /// Where the commands' stderr goes; empty: stencilcc's (the autotuner
  /// reads its candidates' errors from a file).
  std::string commandErrors;
  /// -I, -D, -U, -std=: for the importer and the host compile.
  std::vector<std::string> preprocessorArgs;
  /// Everything else for the host compile and link.
  std::vector<std::string> hostArgs;
  /// Whether the regions may fuse multiplies and adds: the host compile
  /// contracts as -ffp-contract=fast does (getRegionContraction).
  bool allowContraction = false;
};

bool error(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "stencilcc") << message << "\n";
  return false;
}

/// -march= / -mcpu=: the user chose the CPU the code is compiled for.
bool isCPUChoice(StringRef arg) {
  return arg.starts_with("-march=") || arg.starts_with("-mcpu=");
}

/// Whether C source text has a `#pragma stencil` line (whitespace allowed
/// around `#` and between the words; comments and macros are not looked
/// into, which errs towards finding one).
bool hasStencilPragma(StringRef text) {
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.ltrim();
    if (!line.consume_front("#"))
      continue;
    line = line.ltrim();
    if (!line.consume_front("pragma"))
      continue;
    StringRef words = line.ltrim();
    if (words.size() < line.size() && words.starts_with("stencil") &&
        (words.size() == 7 || (!llvm::isAlnum(words[7]) && words[7] != '_')))
      return true;
  }
  return false;
}

bool usageError(const llvm::Twine &message) {
  error(message);
  llvm::errs() << usage;
  return false;
}

/// What runtime/ built for a GPU target.
struct GPUBackend {
  const char *runtime;
  const char *libraries;
  const char *toolkit;
  const char *missing;
};

const GPUBackend &getGPUBackend(StringRef target) {
  static const GPUBackend cuda{
      STENCIL_CUDA_RUNTIME, STENCIL_CUDA_LIBRARIES, STENCIL_CUDA_TOOLKIT,
      "no CUDA toolkit (cuda.h and libcuda or its stub) was found when "
      "stencil-mlir was configured; set CUDA_PATH and reconfigure"};
  static const GPUBackend rocm{
      STENCIL_HIP_RUNTIME, STENCIL_HIP_LIBRARIES, STENCIL_ROCM_TOOLKIT,
      "no HIP (libamdhip64-dev) was found when stencil-mlir was "
      "configured; install it and reconfigure"};
  static const GPUBackend vulkan{
      STENCIL_VULKAN_RUNTIME, STENCIL_VULKAN_LIBRARIES, "",
      "no Vulkan (libvulkan-dev) was found when stencil-mlir was "
      "configured; install it and reconfigure"};
  return target == "cuda" ? cuda : target == "rocm" ? rocm : vulkan;
}

/// The GPU architecture of a described device, for the kernels' code.
std::string getDefaultChip(StringRef target, StringRef device) {
  std::string chip = llvm::StringSwitch<std::string>(device)
                         .Cases({"h100", "h200"}, "sm_90")
                         .Case("a100", "sm_80")
                         .Case("v100", "sm_70")
                         .Case("mi250x", "gfx90a")
                         .Case("mi300x", "gfx942")
                         .Default("");
  if (!chip.empty() || target == "vulkan")
    return chip;
  return target == "cuda" ? "sm_80" : "gfx90a";
}

bool parseArgs(ArrayRef<const char *> args, Options &options, bool &help,
               bool &version) {
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    auto value = [&](StringRef flag) -> std::optional<std::string> {
      if (arg.size() > flag.size())
        return arg.drop_front(flag.size()).str();
      if (i + 1 < args.size())
        return std::string(args[++i]);
      usageError("missing value after " + flag);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      help = true;
      return true;
    }
    if (arg == "--version") {
      version = true;
      return true;
    }
    if (arg.consume_front("--target=")) {
      options.target = arg.str();
    } else if (arg.consume_front("--device=")) {
      options.device = arg.str();
    } else if (arg.consume_front("--chip=")) {
      options.chip = arg.str();
    } else if (arg == "--schedule=cache") {
      options.scheduleFromCache = true;
    } else if (arg.consume_front("--schedule=")) {
      std::string message;
      if (llvm::is_contained(llvm::split(arg, ','), "cache"))
        return usageError("--schedule=" + arg +
                          ": 'cache' takes each region's whole schedule "
                          "from the cache and stands alone");
      if (failed(parseScheduleOverrides(arg, options.schedule, message)))
        return usageError(message);
    } else if (arg == "--autotune") {
      options.autotuneSeconds = 60;
    } else if (arg.consume_front("--autotune=")) {
      double seconds;
      if (arg.getAsDouble(seconds) || !(seconds >= 1 && seconds <= 86400))
        return usageError("--autotune=" + arg +
                          ": expected the search's budget in seconds, 1 "
                          "to 86400");
      options.autotuneSeconds = seconds;
    } else if (arg.consume_front("--autotune-args=")) {
      // Split at white space; the arguments of a benchmark, not a shell
      // line.
      SmallVector<StringRef> words;
      arg.split(words, ' ', -1, /*KeepEmpty=*/false);
      options.autotuneArgs.assign(words.begin(), words.end());
      options.autotuneArgsGiven = true;
    } else if (arg == "--mpi") {
      options.mpi = true;
    } else if (arg.consume_front("--frontend=")) {
      std::optional<PragmaFrontend> frontend =
          llvm::StringSwitch<std::optional<PragmaFrontend>>(arg)
              .Case("auto", PragmaFrontend::Auto)
              .Case("stencil", PragmaFrontend::Stencil)
              .Case("omp-devices", PragmaFrontend::OmpDevices)
              .Case("physis", PragmaFrontend::Physis)
              .Default(std::nullopt);
      if (!frontend)
        return usageError("--frontend=" + arg +
                          ": expected auto, stencil, omp-devices or physis");
      options.frontend = *frontend;
    } else if (arg.consume_front("--mpi-ranks=")) {
      if (arg.getAsInteger(10, options.mpiRanks) || options.mpiRanks < 1)
        return usageError("--mpi-ranks=" + arg +
                          ": expected a positive number of ranks");
    } else if (arg.consume_front("--mpi-devices=")) {
      SmallVector<StringRef> names;
      arg.split(names, ',');
      options.mpiDevices.clear();
      for (StringRef name : names) {
        if (name.empty())
          return usageError("--mpi-devices=" + arg +
                            ": expected device names or .json files "
                            "separated by commas");
        options.mpiDevices.push_back(name.str());
      }
      if (options.mpiDevices.size() < 2)
        return usageError("--mpi-devices=" + arg +
                          ": a split needs two or more devices, one per rank");
    } else if (arg == "--print-schedule") {
      options.printSchedule = true;
    } else if (arg.consume_front("--emit=")) {
      if (arg != "mlir" && arg != "llvm" && arg != "obj" && arg != "device" &&
          arg != "device-isa" && arg != "exe")
        return usageError("--emit=" + arg +
                          ": expected mlir, llvm, obj, device, device-isa "
                          "or exe");
      options.emit = arg.str();
    } else if (arg == "--save-temps") {
      options.saveTemps = true;
    } else if (arg == "-v") {
      options.verbose = true;
    } else if (arg.starts_with("-o")) {
      std::optional<std::string> path = value("-o");
      if (!path)
        return false;
      options.output = *path;
    } else if (arg.starts_with("-I") || arg.starts_with("-D") ||
               arg.starts_with("-U")) {
      std::string flag = arg.take_front(2).str();
      std::optional<std::string> rest = value(flag);
      if (!rest)
        return false;
      options.preprocessorArgs.push_back(flag + *rest);
    } else if (arg.starts_with("-std=")) {
      options.preprocessorArgs.push_back(arg.str());
    } else if (arg == "-include" || arg == "-isystem" || arg == "-iquote" ||
               arg == "-idirafter") {
      // Preprocessor flags whose value is the next argument.
      std::string flag = arg.str();
      std::optional<std::string> next = value(flag);
      if (!next)
        return false;
      options.preprocessorArgs.push_back(flag);
      options.preprocessorArgs.push_back(*next);
    } else if (arg.starts_with("-l") || arg.starts_with("-L") ||
               arg == "-Xlinker" || arg.starts_with("-Wl,")) {
      // Linker inputs and flags keep their order among the inputs: a static
      // library must follow what refers to it.
      options.linkArgs.push_back(arg.str());
      if (arg == "-l" || arg == "-L" || arg == "-Xlinker") {
        std::optional<std::string> next = value(arg);
        if (!next)
          return false;
        options.linkArgs.push_back(*next);
      }
    } else if (arg.starts_with("--")) {
      return usageError("unknown option '" + arg + "'");
    } else if (arg.starts_with("-")) {
      options.hostArgs.push_back(arg.str());
    } else if (options.input.empty() && arg.ends_with(".c")) {
      options.input = arg.str();
    } else {
      options.moreInputs.push_back(arg.str());
      options.linkArgs.push_back(arg.str());
    }
  }
  if (options.input.empty())
    return usageError(options.moreInputs.empty()
                          ? "no input file"
                          : "no C input file (prog.c) among the inputs");
  if (!options.moreInputs.empty() && options.emit != "exe")
    return usageError("--emit=" + options.emit + " compiles '" + options.input +
                      "' only; '" + options.moreInputs.front() +
                      "' is for linking an executable");
  if (options.target != "cpu" && options.target != "cuda" &&
      options.target != "rocm" && options.target != "vulkan")
    return usageError("--target=" + options.target +
                      ": expected cpu, cuda, rocm or vulkan");
  if (options.target != "cpu") {
    const GPUBackend &backend = getGPUBackend(options.target);
    if (StringRef(backend.runtime).empty())
      return error("backend '" + options.target +
                   "' not built: " + backend.missing);
  } else if (StringRef(options.emit).starts_with("device")) {
    return usageError("--emit=" + options.emit + " needs a GPU --target");
  } else if (!options.chip.empty()) {
    return usageError("--chip needs a GPU --target");
  }
  if (options.device.empty())
    options.device = options.target == "cpu"    ? "host"
                     : options.target == "cuda" ? "h100"
                     : options.target == "rocm" ? "mi300x"
                                                : "lavapipe";

  if (!options.mpiDevices.empty() && !options.mpi)
    return usageError("--mpi-devices needs --mpi");
  if (options.scheduleFromCache && !options.schedule.empty())
    return usageError("--schedule=cache takes each region's whole schedule "
                      "from the cache; drop the other --schedule keys");
  if (options.autotuneArgsGiven && !options.autotuneSeconds)
    return usageError("--autotune-args needs --autotune");
  if (options.autotuneSeconds) {
    if (!options.schedule.empty() || options.scheduleFromCache)
      return usageError("--autotune searches the schedule itself; drop "
                        "--schedule");
    if (options.emit != "exe")
      return usageError("--autotune times executables; it cannot be "
                        "combined with --emit=" +
                        options.emit);
    if (options.mpi)
      return usageError("--autotune runs one process; tune without --mpi "
                        "(on-node schedules carry over) and use "
                        "--schedule=cache with --mpi");
    if (options.target == "cpu" && options.device != "host")
      return usageError("--autotune times the program on this machine; "
                        "--device=" +
                        options.device +
                        " describes another (drop --device to tune for the "
                        "host)");
  }
  // stencil_io.h (stencil_write_raw) for the importer and the host
  // compile, after the user's directories.
  options.preprocessorArgs.push_back(
      "-I" + resolveInstallPath("include/stencil-mlir"));
  if (options.mpi && StringRef(STENCIL_MPI_RUNTIME).empty())
    return error("backend 'mpi' not built: no MPI library was found when "
                 "stencil-mlir was configured (install openmpi-bin "
                 "libopenmpi-dev and reconfigure)");
  if (options.output.empty())
    options.output = options.emit == "exe"          ? "a.out"
                     : options.emit == "mlir"       ? "-"
                     : options.emit == "llvm"       ? "-"
                     : options.emit == "device"     ? "a.device"
                     : options.emit == "device-isa" ? "-"
                                                    : "a.o";
  return true;
}

/// Prints a diagnostic of the passes as clang prints its own, naming the C
/// source as `file:line:col:`, and its notes after it.
void printDiagnostic(const Diagnostic &diag) {
  auto print = [](Location loc, DiagnosticSeverity severity,
                  const llvm::Twine &message) {
    if (auto file = loc->findInstanceOf<FileLineColLoc>())
      llvm::errs() << file.getFilename().getValue() << ":" << file.getLine()
                   << ":" << file.getColumn() << ": ";
    else
      llvm::errs() << "stencilcc: ";
    switch (severity) {
    case DiagnosticSeverity::Error:
      llvm::errs() << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      llvm::errs() << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      llvm::errs() << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      llvm::errs() << "remark: ";
      break;
    }
    llvm::errs() << message << "\n";
  };
  print(diag.getLocation(), diag.getSeverity(), diag.str());
  for (const Diagnostic &note : diag.getNotes())
    print(note.getLocation(), note.getSeverity(), note.str());
}

/// Runs a program; prints the command with -v. Its standard error goes to
/// `options.commandErrors` when set. Why it could not be started at all is
/// printed, unless that file is set, or given in `launchFailure` if asked.
bool run(const Options &options, ArrayRef<std::string> command,
         std::string *launchFailure = nullptr) {
  if (options.verbose)
    llvm::errs() << llvm::join(command, " ") << "\n";
  SmallVector<StringRef> argv(command.begin(), command.end());
  std::string message;
  SmallVector<std::optional<StringRef>, 3> redirects;
  if (!options.commandErrors.empty())
    redirects = {std::nullopt, std::nullopt, StringRef(options.commandErrors)};
  int status = llvm::sys::ExecuteAndWait(command.front(), argv, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status != 0) {
    if (launchFailure)
      *launchFailure = message;
    else if (!message.empty() && options.commandErrors.empty())
      error(command.front() + ": " + message);
    return false;
  }
  return true;
}

/// The lines of a command's standard error that report an error.
SmallVector<StringRef> getErrorLines(StringRef errors) {
  SmallVector<StringRef> lines;
  errors.split(lines, '\n');
  llvm::erase_if(lines,
                 [](StringRef line) { return !line.contains("error:"); });
  return lines;
}

bool writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return error("cannot write '" + path + "': " + ec.message());
  os << text;
  return true;
}

/// The temporary directory to remove when the driver is interrupted
/// (SIGINT, SIGTERM), empty when there is none.
std::string &interruptedTempDir() {
  static std::string path;
  return path;
}

/// LLVM calls this instead of ending the program: end it as the signal
/// would have (the status a shell gives SIGINT).
void removeInterruptedTempDir() {
  if (!interruptedTempDir().empty())
    llvm::sys::fs::remove_directories(interruptedTempDir());
  std::_Exit(130);
}

/// `--print-schedule`: one JSON object per region; `source` says where its
/// schedule came from.
void printSchedules(ArrayRef<RegionSchedule> chosen, const Options &options,
                    function_ref<StringRef(StringRef region)> source) {
  for (const RegionSchedule &schedule : chosen) {
    llvm::outs() << "{\"region\": \"" << schedule.region << "\", \"device\": \""
                 << options.device << "\", \"wg\": [";
    llvm::interleaveComma(schedule.workGroup, llvm::outs());
    llvm::outs() << "], \"time_block\": " << schedule.timeBlock
                 << ", \"exchange_depth\": " << schedule.exchangeDepth
                 << ", \"streaming_stores\": "
                 << (schedule.streamingStores ? "true" : "false")
                 << ", \"source\": \"" << source(schedule.region) << "\"}\n";
  }
}

/// Chooses each region's schedule: the tuning passes' choice for
/// --device, then the keys --schedule gives or the schedules the autotuner
/// cached. Rejects schedules the region cannot run.
bool attachSchedules(ModuleOp module, const Options &options,
                     const llvm::StringMap<std::string> &hashes) {
  if (options.schedule.streamingStores.value_or(false) &&
      options.target != "cpu")
    return error("--schedule nt=1: streaming stores are for --target=cpu");
  // Seed 002's split across unequal devices, one per rank: their shares of
  // the outermost axis, which stencil-distribute hands to the runtime.
  if (!options.mpiDevices.empty()) {
    std::string list = llvm::join(options.mpiDevices, ",");
    PassManager split(module.getContext());
    StencilAttachTargetOptions devices;
    devices.targets.assign(options.mpiDevices.begin(),
                           options.mpiDevices.end());
    split.addPass(createStencilAttachTarget(devices));
    split.addPass(createStencilTuneSplit());
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Remark) {
        if (options.verbose)
          llvm::errs() << "stencilcc: remark: " << diag.str() << "\n";
        return success();
      }
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        llvm::errs() << "stencilcc: error: --mpi-devices=" << list << ": "
                     << diag.str() << "\n";
      return success();
    });
    if (failed(split.run(module)))
      return false;
  }
  PassManager pm(module.getContext());
  StencilAttachTargetOptions attach;
  attach.targets.push_back(options.device);
  pm.addPass(createStencilAttachTarget(attach));
  StencilTuneWorkGroupOptions tuneOptions;
  tuneOptions.acrossRanks = options.mpi;
  pm.addPass(createStencilTuneWorkGroup(tuneOptions));
  if (options.mpi) {
    StencilTuneExchangeDepthOptions depth;
    depth.ranks = options.mpiRanks;
    pm.addPass(createStencilTuneExchangeDepth(depth));
  }
  // Remarks explain each choice; show them with -v only.
  ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Remark) {
      if (options.verbose)
        llvm::errs() << "stencilcc: remark: " << diag.str() << "\n";
      return success();
    }
    return failure();
  });
  if (failed(pm.run(module)))
    return false;

  // --schedule=cache: what --autotune measured for these regions on this
  // device; regions it has not measured keep the tuned schedule.
  llvm::StringMap<ScheduleOverrides> cached;
  if (options.scheduleFromCache) {
    ScheduleCache cache;
    std::string message;
    std::string path = ScheduleCache::getDefaultPath();
    if (path.empty())
      return error("--schedule=cache: no cache directory (set HOME, "
                   "XDG_CACHE_HOME or STENCIL_CACHE_DIR)");
    if (failed(cache.load(path, message)))
      return error("--schedule=cache: " + message);
    std::string device = getAutotuneDeviceKey(options.target, options.device,
                                              options.allowContraction);
    for (const RegionSchedule &region : getRegionSchedules(module)) {
      const ScheduleCache::Entry *entry =
          cache.lookup(hashes.lookup(region.region), device);
      if (!entry) {
        llvm::errs() << "stencilcc: note: no cached schedule for region '"
                     << region.region << "' on " << device
                     << "; using the tuned one (stencilcc --autotune "
                        "measures one)\n";
        continue;
      }
      ScheduleOverrides &overrides = cached[region.region];
      overrides = entry->schedule.getOverrides();
      // Across ranks, distributed regions keep the time blocks and
      // exchange depth tuned together for the ranks' blocks (--autotune
      // measured one process on the whole grid).
      if (options.mpi && region.distributed) {
        overrides.timeBlock.reset();
        overrides.exchangeDepth.reset();
      }
      if (options.verbose)
        llvm::errs() << "stencilcc: remark: region '" << region.region
                     << "': schedule " << entry->schedule.getKeys() << " from "
                     << path << "\n";
    }
  }

  SmallVector<RegionSchedule> chosen;
  std::string message;
  if (failed(options.scheduleFromCache
                 ? applyScheduleOverrides(module, cached, options.mpi, chosen,
                                          message)
                 : applyScheduleOverrides(module, options.schedule, options.mpi,
                                          chosen, message)))
    return error(message);
  if (options.printSchedule && !options.autotuneSeconds)
    printSchedules(chosen, options, [&](StringRef region) {
      return cached.count(region)       ? "cache"
             : options.schedule.empty() ? "tuned"
                                        : "tuned+--schedule";
    });
  return true;
}

/// The vector width the regions are compiled for, in clang's
/// -mprefer-vector-width terms: the user's, else the widest of this machine
/// when compiling for it (LLVM keeps 256 bits on AVX-512 CPUs, while time
/// blocks run from cache and gain from full-width vectors), else "" for
/// LLVM's default. nullopt after a diagnostic.
std::optional<std::string> getPreferredVectorWidth(const Options &options) {
  std::optional<std::string> width;
  bool userArch = false;
  for (StringRef arg : options.hostArgs) {
    userArch |= isCPUChoice(arg);
    if (arg.consume_front("-mprefer-vector-width="))
      width = arg.str();
  }
  if (width) {
    unsigned bits;
    if (*width != "none" && StringRef(*width).getAsInteger(10, bits)) {
      error("-mprefer-vector-width= takes a width in bits or 'none', got '" +
            *width + "'");
      return std::nullopt;
    }
    return width;
  }
  if (userArch)
    return std::string();
  return std::to_string(detectHostSimdWidth() * 32);
}

/// Lowers the scheduled regions of `module` for --target, in place; false
/// after a diagnostic.
bool lowerRegions(ModuleOp module, const Options &options) {
  PassManager pm(module.getContext());
  if (options.mpi)
    pm.addPass(createStencilDistribute());
  if (options.target != "cpu") {
    StencilToGPUPipelineOptions gpuOptions;
    gpuOptions.target = options.target;
    gpuOptions.chip = options.chip.empty()
                          ? getDefaultChip(options.target, options.device)
                          : options.chip;
    gpuOptions.allowContraction = options.allowContraction;
    gpuOptions.toolkit =
        resolveInstallPath(getGPUBackend(options.target).toolkit);
    // PTX or AMD assembly instead of the binary the executable embeds.
    if (options.emit == "device-isa" && options.target != "vulkan")
      gpuOptions.format = "isa";
    (void)buildStencilToGPUPipeline(pm, gpuOptions);
  } else {
    StencilToCPUPipelineOptions cpuOptions;
    cpuOptions.allowContraction = options.allowContraction;
    buildStencilToCPUPipeline(pm, cpuOptions);
  }
  return succeeded(pm.run(module));
}

/// The lowered regions as LLVM IR text, the functions named in
/// `timedRegions` timed for --autotune; nullopt after a diagnostic.
std::optional<std::string>
translateRegions(ModuleOp module, const Options &options,
                 ArrayRef<std::string> timedRegions = {}) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, options.input);
  if (!llvmModule) {
    error("internal error: the lowered regions do not translate to LLVM "
          "IR");
    return std::nullopt;
  }
  if (options.target == "cpu") {
    std::optional<std::string> width = getPreferredVectorWidth(options);
    if (!width)
      return std::nullopt;
    // clang applies -mprefer-vector-width only to the code it compiles
    // from C, not to IR, so the regions carry it as a function attribute.
    if (!width->empty())
      for (llvm::Function &function : *llvmModule)
        if (!function.isDeclaration())
          function.addFnAttr("prefer-vector-width", *width);
  }
  instrumentRegionTiming(*llvmModule, timedRegions);
  std::string irText;
  llvm::raw_string_ostream irStream(irText);
  llvmModule->print(irStream, nullptr);
  return irText;
}

/// Compiles the regions' LLVM IR at `irPath` to an object.
bool compileRegionIR(const Options &options, StringRef irPath,
                     StringRef objectPath) {
  // The regions are compiled for this machine, like the -march=native
  // baselines they are measured against; a user -march overrides it.
  std::vector<std::string> command = {STENCIL_CLANG_PATH, "-c", "-O3",
                                      "-Wno-override-module"};
  if (llvm::none_of(options.hostArgs, isCPUChoice))
    command.push_back("-march=native");
  llvm::copy_if(options.hostArgs, std::back_inserter(command), isCPUChoice);
  command.insert(command.end(),
                 {"-x", "ir", irPath.str(), "-o", objectPath.str()});
  return run(options, command);
}

/// clang and the flags the host program is compiled with.
std::vector<std::string> getHostCompileCommand(const Options &options) {
  SmallString<128> sourceDir(options.input);
  llvm::sys::path::remove_filename(sourceDir);
  if (sourceDir.empty())
    sourceDir = ".";
  std::vector<std::string> command = {STENCIL_CLANG_PATH};
  bool userOpt = llvm::any_of(options.hostArgs, [](const std::string &a) {
    return StringRef(a).starts_with("-O");
  });
  if (!userOpt)
    command.push_back("-O2");
  // Static arrays past 2 GiB in all (two 1024^3 float grids) overflow the
  // small code model's 32-bit relocations at link time. The medium model
  // moves objects above 64 KiB to .lbss/.ldata with 64-bit addresses and
  // leaves the rest as it was; the regions take pointers, so their code
  // does not change.
  bool userCodeModel = llvm::any_of(options.hostArgs, [](const std::string &a) {
    return StringRef(a).starts_with("-mcmodel");
  });
  if (!userCodeModel && llvm::Triple(llvm::sys::getProcessTriple()).getArch() ==
                            llvm::Triple::x86_64)
    command.push_back("-mcmodel=medium");
  command.push_back("-iquote" + std::string(sourceDir));
  llvm::append_range(command, options.preprocessorArgs);
  llvm::append_range(command, options.hostArgs);
  return command;
}

/// Whether the regions may contract: whether clang compiles the host
/// program with -ffp-contract=fast (or fast-honor-pragmas). Its driver
/// reads that from -ffp-contract=, -ffast-math, -Ofast, -ffp-model=,
/// -funsafe-math-optimizations and their order; `clang -###` prints the
/// value it passes its front end, so the regions follow clang's own reading
/// of the flags. Without a -f or -O flag nothing can ask for it and clang
/// is not asked. nullopt after clang rejected the flags (its message is
/// printed).
std::optional<bool> getRegionContraction(const Options &options) {
  if (llvm::none_of(options.hostArgs, [](StringRef arg) {
        return arg.starts_with("-f") || arg.starts_with("-O");
      }))
    return false;
  SmallString<128> errorsPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "stencilcc-flags", "txt", errorsPath)) {
    error("cannot create a temporary file: " + ec.message());
    return std::nullopt;
  }
  llvm::FileRemover removeErrors(errorsPath);
  std::vector<std::string> command = getHostCompileCommand(options);
  command.insert(command.end(),
                 {"-###", "-fsyntax-only", "-x", "c", "/dev/null"});
  // -### prints to standard error.
  Options probe = options;
  probe.commandErrors = std::string(errorsPath);
  std::string message;
  bool ran = run(probe, command, &message);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> output =
      llvm::MemoryBuffer::getFile(errorsPath);
  if (!ran || !output) {
    SmallVector<StringRef> errors;
    if (output)
      errors = getErrorLines((*output)->getBuffer());
    for (StringRef line : errors)
      llvm::errs() << line << "\n";
    if (errors.empty())
      error(command.front() + ": " +
            (message.empty() ? "cannot read the compile flags" : message));
    return std::nullopt;
  }
  StringRef text = (*output)->getBuffer();
  StringRef key = "\"-ffp-contract=";
  size_t at = text.find(key);
  if (at == StringRef::npos)
    return false;
  StringRef mode =
      text.substr(at + key.size()).take_until([](char c) { return c == '"'; });
  return mode == "fast" || mode == "fast-honor-pragmas";
}

/// Compiles the host program to an object once for --autotune's
/// candidates, which differ in their regions only.
bool compileHostObject(const Options &options, StringRef hostPath,
                       StringRef objectPath) {
  std::vector<std::string> command = getHostCompileCommand(options);
  command.insert(command.end(),
                 {"-fopenmp", "-c", hostPath.str(), "-o", objectPath.str()});
  return run(options, command);
}

/// Compiles the host program (the C file with each region replaced by a
/// call, or the file itself when it has no region; or its object) and
/// links it with the regions' object (`objectPath`, empty when none) and
/// the runtimes into `output`.
bool linkProgram(const Options &options, const PragmaCImportResult &imported,
                 StringRef hostPath, StringRef objectPath, StringRef output) {
  std::vector<std::string> command = getHostCompileCommand(options);
  command.push_back(imported.numRegions > 0 ? hostPath.str() : options.input);
  llvm::append_range(command, options.linkArgs);
  if (!objectPath.empty())
    command.push_back(objectPath.str());
  bool gpuTarget = options.target != "cpu";
  if (gpuTarget) {
    // The GPU runtime (runtime/gpu) and the driver library it calls.
    const GPUBackend &backend = getGPUBackend(options.target);
    command.push_back(resolveInstallPath(backend.runtime));
    SmallVector<StringRef> libraries;
    StringRef(backend.libraries).split(libraries, ' ', -1, false);
    for (StringRef library : libraries)
      command.push_back(library.str());
  }
  if (!gpuTarget && imported.numRegions > 0 &&
      !StringRef(STENCIL_OPENMP_RUNTIME).empty()) {
    // libomp's own start-up (1.5-1.9 ms here) before main instead of in the
    // first call of a region: runtime/cpu/stencil_openmp.c. Its constructor
    // is all the archive member has, so `-u` pulls it in.
    command.insert(command.end(), {"-Wl,-u,stencil_openmp_start",
                                   resolveInstallPath(STENCIL_OPENMP_RUNTIME)});
  }
  if (imported.numRegions > 0 && !StringRef(STENCIL_SUPPORT_RUNTIME).empty())
    command.push_back(resolveInstallPath(STENCIL_SUPPORT_RUNTIME));
  if (options.mpi) {
    // The MPI runtime and the MPI library it calls; its constructor starts
    // MPI before main and keeps rank 0's output only, also in a program
    // none of whose regions calls it (`-u` pulls it in).
    command.insert(command.end(), {"-Wl,-u,stencil_mpi_begin",
                                   resolveInstallPath(STENCIL_MPI_RUNTIME)});
    SmallVector<StringRef> libraries;
    StringRef(STENCIL_MPI_LIBRARIES).split(libraries, ' ', -1, false);
    for (StringRef library : libraries)
      command.push_back(library.str());
  }
  command.insert(command.end(), {"-fopenmp", "-lm", "-o", output.str()});
  return run(options, command);
}

/// --autotune: searches each region's schedule around the static one
/// (Driver/Autotune.h), stores the best in the cache and sets it on
/// `module`. False after an error.
bool autotuneSchedules(ModuleOp module, const Options &options,
                       const PragmaCImportResult &imported,
                       const llvm::StringMap<std::string> &hashes,
                       StringRef tempDir, StringRef hostPath) {
  SmallVector<RegionSchedule> regions = getRegionSchedules(module);
  if (regions.empty())
    return error("--autotune: '" + options.input +
                 "' has no #pragma stencil region to tune");
  SmallVector<std::string> names;
  for (const RegionSchedule &region : regions)
    names.push_back(region.region);

  // Candidates are built as the program is, quietly, with timed regions,
  // linking one object of the host program.
  SmallString<128> hostObject;
  Options quiet = options;
  quiet.verbose = false;
  SmallString<128> commandErrors(tempDir);
  llvm::sys::path::append(commandErrors, "autotune-commands.txt");
  quiet.commandErrors = std::string(commandErrors);
  MLIRContext *context = module.getContext();
  auto build = [&](ArrayRef<RegionSchedule> schedules, StringRef path,
                   std::string &failure) {
    OwningOpRef<ModuleOp> candidate = module.clone();
    llvm::StringMap<ScheduleOverrides> overrides;
    for (const RegionSchedule &schedule : schedules)
      overrides[schedule.region] = schedule.getOverrides();
    SmallVector<RegionSchedule> chosen;
    if (failed(applyScheduleOverrides(*candidate, overrides,
                                      /*acrossRanks=*/false, chosen, failure)))
      return false;
    // A candidate's diagnostics say why it does not build; they are the
    // table's, not the user's.
    ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && failure.empty())
        failure = diag.str();
      return success();
    });
    if (!lowerRegions(*candidate, quiet)) {
      if (failure.empty())
        failure = "the lowering failed";
      return false;
    }
    std::optional<std::string> ir = translateRegions(*candidate, quiet, names);
    std::string irPath = (path + ".ll").str(), objectPath = (path + ".o").str();
    if (!ir || !writeFile(irPath, *ir) ||
        !compileRegionIR(quiet, irPath, objectPath) ||
        !linkProgram(quiet, imported, hostObject, objectPath, path)) {
      // clang's first error says why.
      failure = "clang failed";
      if (auto text = llvm::MemoryBuffer::getFile(commandErrors)) {
        SmallVector<StringRef> errors = getErrorLines((*text)->getBuffer());
        if (!errors.empty())
          failure = "clang: " + errors.front().trim().str();
      }
      return false;
    }
    return true;
  };

  AutotuneOptions tuneOptions;
  tuneOptions.budgetSeconds = *options.autotuneSeconds;
  tuneOptions.runArgs = options.autotuneArgs;
  tuneOptions.progress = llvm::sys::Process::StandardErrIsDisplayed();
  tuneOptions.cpu = options.target == "cpu";
  FailureOr<SmallVector<TargetDescription>> devices =
      readAttachedTargets(module);
  if (!tuneOptions.cpu && succeeded(devices) && !devices->empty())
    tuneOptions.maxWorkGroupSize = devices->front().maxWorkGroupSize;
  SmallString<128> workDir(tempDir);
  llvm::sys::path::append(workDir, "autotune");
  if (std::error_code ec = llvm::sys::fs::create_directories(workDir))
    return error("cannot create '" + workDir + "': " + ec.message());
  llvm::sys::path::append(hostObject, workDir, "host.o");
  if (!compileHostObject(options, hostPath, hostObject))
    return error("compiling the host program failed");
  auto start = std::chrono::steady_clock::now();
  SmallVector<RegionTuning> tunings;
  std::string message;
  if (failed(autotune(regions, build, workDir, tuneOptions, tunings, message)))
    return error("--autotune: " + message);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::string device = getAutotuneDeviceKey(options.target, options.device,
                                            options.allowContraction);
  std::string cachePath = ScheduleCache::getDefaultPath();
  ScheduleCache cache;
  if (!cachePath.empty() && failed(cache.load(cachePath, message))) {
    // The search's result is worth more than an unreadable cache.
    llvm::WithColor::warning(llvm::errs(), "stencilcc")
        << message << "; replacing it\n";
  }
  llvm::StringMap<ScheduleOverrides> best;
  for (const RegionTuning &tuning : tunings) {
    const RegionSchedule &name = tuning.tuned;
    if (options.verbose)
      printAutotuneTable(llvm::errs(), tuning);
    if (!tuning.ran) {
      llvm::errs() << "stencilcc: autotune: region '" << name.region
                   << "' did not run"
                   << (options.autotuneArgs.empty()
                           ? std::string()
                           : " with arguments '" +
                                 llvm::join(options.autotuneArgs, " ") + "'")
                   << "; it keeps its static schedule\n";
      continue;
    }
    const CandidateTiming &chosen = tuning.candidates[tuning.best];
    const CandidateTiming &tuned = tuning.candidates.front();
    size_t timed =
        llvm::count_if(tuning.candidates, [](const CandidateTiming &candidate) {
          return !candidate.seconds.empty();
        });
    llvm::errs() << "stencilcc: autotune: region '" << name.region
                 << "': " << chosen.schedule.getKeys();
    if (tuning.best == 0)
      llvm::errs() << " (the static choice) was fastest";
    else
      llvm::errs() << llvm::format(" is %.2fx the static ",
                                   tuned.getMedian() / chosen.getMedian())
                   << tuned.schedule.getKeys();
    llvm::errs() << llvm::format(
        " (median of %zu runs, spread %.1f%%; %zu of %zu candidates timed "
        "in %.0f s)\n",
        chosen.seconds.size(), chosen.getSpread() * 100, timed,
        tuning.candidates.size(), seconds);
    best[name.region] = chosen.schedule.getOverrides();
    auto hash = hashes.find(name.region);
    if (hash == hashes.end())
      continue;
    cache.store({name.region, hash->second, device, chosen.schedule,
                 chosen.getMedian(), tuned.getMedian(),
                 llvm::join(options.autotuneArgs, " ")});
  }
  if (!cachePath.empty()) {
    if (failed(cache.save(message)))
      llvm::WithColor::warning(llvm::errs(), "stencilcc") << message << "\n";
    else
      llvm::errs() << "stencilcc: autotune: saved to " << cachePath
                   << " (use it with --schedule=cache)\n";
  }

  SmallVector<RegionSchedule> chosen;
  if (failed(applyScheduleOverrides(module, best, /*acrossRanks=*/false, chosen,
                                    message)))
    return error(message);
  if (options.printSchedule)
    printSchedules(chosen, options, [&](StringRef region) {
      return best.count(region) ? "autotune" : "tuned";
    });
  return true;
}
} // namespace

void mlir::stencil::printVersion(raw_ostream &os) {
  printToolVersion(os);
  os << "  backends: cpu";
  for (StringRef target : {"cuda", "rocm", "vulkan"})
    if (*getGPUBackend(target).runtime)
      os << ", " << target;
  if (*STENCIL_MPI_RUNTIME)
    os << ", mpi";
  os << "\n";
}

int mlir::stencil::runStencilCC(ArrayRef<const char *> args) {
  Options options;
  bool help = false, version = false;
  if (!parseArgs(args, options, help, version))
    return 1;
  if (version) {
    printVersion(llvm::outs());
    return 0;
  }
  if (help) {
    llvm::outs() << "stencilcc: compile a C program with #pragma stencil "
                    "regions (or seed 004's '#pragma omp target' spelling) "
                    "into an executable\n"
                 << usage;
    return 0;
  }

  DialectRegistry registry;
  mlir::stencil::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Users read the message and its location in their C file, not the IR.
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler locatedDiagnostics(&context, [](Diagnostic &diag) {
    printDiagnostic(diag);
    return success();
  });

  // One file's regions per executable: their functions are named after
  // the enclosing function and a count, which two files could share.
  for (const std::string &more : options.moreInputs) {
    if (!StringRef(more).ends_with(".c"))
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(more);
    if (!text) {
      error("cannot read '" + more + "': " + text.getError().message());
      return 1;
    }
    if (hasStencilPragma((*text)->getBuffer())) {
      error("'" + more +
            "' has #pragma stencil lines too; stencilcc compiles "
            "the regions of one C file per executable ('" +
            options.input + "')");
      return 1;
    }
    if (isPhysisProgram((*text)->getBuffer()) &&
        (*text)->getBuffer().contains("PSStencilRun")) {
      error("'" + more +
            "' runs Physis stencils too; stencilcc compiles the runs of "
            "one C file per executable ('" +
            options.input + "')");
      return 1;
    }
  }

  // Decided before the schedules: the autotuner's cache keeps contracted
  // and exact regions apart.
  std::optional<bool> contraction = getRegionContraction(options);
  if (!contraction)
    return 1;
  // SPIR-V has no such permission: Vulkan kernels stay exact.
  options.allowContraction = *contraction && options.target != "vulkan";

  PragmaCImportOptions importOptions;
  importOptions.clangArgs = options.preprocessorArgs;
  importOptions.residentBlocks = options.mpi;
  importOptions.frontend = options.frontend;
  PragmaCImportResult imported;
  if (failed(importPragmaC(options.input, importOptions, &context, imported)))
    return 1;
  // A Physis program's other C files make grids with the margin its runs
  // expect.
  if (imported.physisMargin)
    options.preprocessorArgs.push_back("-DPHYSIS_MARGIN=" +
                                       std::to_string(*imported.physisMargin));
  // What the schedule cache knows the regions by, taken before any
  // schedule is attached.
  llvm::StringMap<std::string> hashes;
  if (options.scheduleFromCache || options.autotuneSeconds)
    hashes = hashRegions(*imported.module);
  if (!attachSchedules(*imported.module, options, hashes))
    return 1;
  // The CPU backend compiles for CPU descriptions, the GPU backends for
  // GPU descriptions; others' schedules can still be printed or emitted.
  FailureOr<SmallVector<TargetDescription>> device =
      readAttachedTargets(*imported.module);
  std::string kind = succeeded(device) && !device->empty()
                         ? device->front().kind
                         : std::string("device");
  bool gpuTarget = options.target != "cpu";
  if ((gpuTarget ? kind != "gpu" : kind != "cpu") && options.emit != "mlir") {
    if (options.printSchedule && options.output == "a.out" &&
        !options.autotuneSeconds)
      return 0;
    if (gpuTarget)
      error("--device=" + options.device + " is a " + kind +
            "; --target=" + options.target +
            " needs a GPU description (--device=h100, "
            "mi300x, lavapipe, ... or a .json file)");
    else
      error("--device=" + options.device + " is a " + kind +
            "; compile for it with --target=cuda, rocm or vulkan, or use "
            "--device=host to compile for this CPU (--print-schedule and "
            "--emit=mlir show its schedule)");
    return 1;
  }

  if (options.emit == "mlir") {
    std::string text;
    llvm::raw_string_ostream os(text);
    imported.module->print(os);
    if (options.output == "-") {
      llvm::outs() << text;
      return 0;
    }
    return writeFile(options.output, text) ? 0 : 1;
  }

  SmallString<128> tempDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("stencilcc", tempDir)) {
    error("cannot create a temporary directory: " + ec.message());
    return 1;
  }
  llvm::scope_exit cleanup([&] {
    interruptedTempDir().clear();
    if (options.saveTemps)
      llvm::errs() << "stencilcc: temporary files kept in " << tempDir << "\n";
    else
      llvm::sys::fs::remove_directories(tempDir);
  });
  // Ctrl-C or a kill during the compile or link removes it too.
  if (!options.saveTemps) {
    interruptedTempDir() = std::string(tempDir);
    llvm::sys::SetInterruptFunction(removeInterruptedTempDir);
  }
  auto tempPath = [&](StringRef name) {
    SmallString<128> path(tempDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  // The host program: the C file with each region replaced by a call, with
  // `#line` so diagnostics name the original file (line numbers are kept).
  std::string hostPath = tempPath("host.c");
  if (imported.numRegions > 0 &&
      !writeFile(hostPath, "#line 1 \"" + options.input + "\"\n" +
                               imported.rewrittenSource))
    return 1;
  std::string objectPath;

  if (imported.numRegions > 0) {
    bool anyDistributed = false;
    imported.module->walk([&](LoadOp load) {
      anyDistributed |= load.getResult().getType().isDistributed();
    });
    if (anyDistributed && !options.mpi)
      llvm::errs() << "stencilcc: note: '" << options.input
                   << "' distributes its arrays (#pragma stencil "
                      "distribute, or an OpenMP layout clause); compiled to "
                      "run as one process. Use --mpi to run it across MPI "
                      "ranks\n";
    if (options.autotuneSeconds &&
        !autotuneSchedules(*imported.module, options, imported, hashes, tempDir,
                           hostPath))
      return 1;
    if (!lowerRegions(*imported.module, options))
      return 1;
    if (StringRef(options.emit).starts_with("device")) {
      // The kernels' binary: PTX or cubin, AMD code object, SPIR-V. A
      // Vulkan program may have several SPIR-V modules (stencil-to-gpu
      // keeps kernels whose workgroup memory would sum past the largest
      // one's apart): those go to OUTPUT.0, OUTPUT.1, ... in IR order.
      SmallVector<std::string> binaries;
      imported.module->walk([&](gpu::BinaryOp op) {
        std::string &binary = binaries.emplace_back();
        for (Attribute object : op.getObjects())
          binary += llvm::cast<gpu::ObjectAttr>(object).getObject().str();
      });
      if (binaries.size() > 1 && options.output == "-")
        return error("the kernels are in " + std::to_string(binaries.size()) +
                     " modules, which one stream cannot hold; name a file "
                     "with -o (OUTPUT.0, OUTPUT.1, ... are written)"),
               1;
      if (binaries.size() <= 1) {
        std::string binary = binaries.empty() ? "" : binaries.front();
        if (options.output == "-") {
          llvm::outs() << binary;
          return 0;
        }
        return writeFile(options.output, binary) ? 0 : 1;
      }
      for (auto [i, binary] : llvm::enumerate(binaries))
        if (!writeFile(options.output + "." + std::to_string(i), binary))
          return 1;
      llvm::errs() << "stencilcc: the kernels are in " << binaries.size()
                   << " modules: " << options.output << ".0 to "
                   << options.output << "." << binaries.size() - 1 << "\n";
      return 0;
    }
    std::optional<std::string> irText =
        translateRegions(*imported.module, options);
    if (!irText)
      return 1;
    if (options.emit == "llvm") {
      if (options.output == "-") {
        llvm::outs() << *irText;
        return 0;
      }
      return writeFile(options.output, *irText) ? 0 : 1;
    }
    std::string irPath = tempPath("regions.ll");
    objectPath = options.emit == "obj" ? options.output : tempPath("regions.o");
    if (!writeFile(irPath, *irText))
      return 1;
    if (!compileRegionIR(options, irPath, objectPath))
      return error("compiling the lowered regions failed"), 1;
    if (options.emit == "obj")
      return 0;
  } else if (options.emit != "exe") {
    error("'" + options.input + "' has no #pragma stencil region to emit");
    return 1;
  } else if (options.autotuneSeconds) {
    error("--autotune: '" + options.input +
          "' has no #pragma stencil region to tune");
    return 1;
  }

  if (!linkProgram(options, imported, hostPath, objectPath, options.output))
    return error("compiling the host program failed"), 1;
  return 0;
}
