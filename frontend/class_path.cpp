#include "frontend/class_path.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <variant>

#include "frontend/class_file.hpp"
#include "frontend/format_error.hpp"
#include "frontend/zip_archive.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kClassSuffix = ".class";
constexpr std::string_view kVersionsPrefix = "META-INF/versions/";
constexpr std::string_view kJmodClassesPrefix = "classes/";
constexpr std::string_view kManifest = "META-INF/MANIFEST.MF";
constexpr std::string_view kServicesPrefix = "META-INF/services/";
constexpr int kFirstVersionedRelease = 9;  // multi-release jars came with Java 9

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw InputError(SourceLocation{where, 0, 0}, message);
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

// Whether the main section of a manifest has "Multi-Release: true" (JAR file specification:
// main attributes end at the first empty line; a line starting with a space continues the
// previous one).
bool manifest_is_multi_release(const std::vector<std::uint8_t>& bytes) {
  const std::string text(bytes.begin(), bytes.end());
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line.empty()) break;  // end of the main section
    if (line.front() == ' ' && !lines.empty()) {
      lines.back() += line.substr(1);
    } else {
      lines.push_back(std::move(line));
    }
    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') {
      ++end;
    }
    start = end + 1;
  }
  for (const std::string& line : lines) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (equals_ignoring_case(trim(std::string_view(line).substr(0, colon)), "Multi-Release")) {
      return equals_ignoring_case(trim(std::string_view(line).substr(colon + 1)), "true");
    }
  }
  return false;
}

// "META-INF/versions/11/a/B.class" -> (11, "a/B.class"); nothing if not of that form.
std::optional<std::pair<int, std::string_view>> split_versioned(std::string_view entry) {
  if (entry.substr(0, kVersionsPrefix.size()) != kVersionsPrefix) return std::nullopt;
  entry.remove_prefix(kVersionsPrefix.size());
  const std::size_t slash = entry.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash > 4) return std::nullopt;
  int version = 0;
  for (const char c : entry.substr(0, slash)) {
    if (c < '0' || c > '9') return std::nullopt;
    version = version * 10 + (c - '0');
  }
  return std::pair{version, entry.substr(slash + 1)};
}

// "META-INF/services/a.B" -> "a.B"; nothing for other entries, the folder itself and files
// in folders below it (ServiceLoader reads only META-INF/services/NAME).
std::optional<std::string_view> service_of(std::string_view entry) {
  if (entry.substr(0, kServicesPrefix.size()) != kServicesPrefix) return std::nullopt;
  entry.remove_prefix(kServicesPrefix.size());
  if (entry.empty() || entry.find('/') != std::string_view::npos) return std::nullopt;
  return entry;
}

bool is_module_info(std::string_view name) {
  return name == "module-info" || ends_with(name, "/module-info");
}

// "java/lang/String" -> "java/lang"; a class of the unnamed package -> "".
std::string_view package_of(std::string_view binary_name) {
  const auto slash = binary_name.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : binary_name.substr(0, slash);
}

// An exports or opens entry applies to every module when it names none.
bool to_all(const std::vector<ModulePackage>& entries, std::string_view package) {
  return std::any_of(entries.begin(), entries.end(), [&](const ModulePackage& entry) {
    return entry.package == package && entry.to.empty();
  });
}

}  // namespace

struct ClassPath::Source {
  std::string name;                   // the path, as given
  std::optional<ZipArchive> archive;  // jar or jmod; a folder otherwise
  fs::path folder;
  // Binary name -> archive entry index, or file path relative to the folder.
  std::unordered_map<std::string, std::variant<std::size_t, std::string>> classes;
  // A jmod's Module attribute, read when first asked for; inner nothing: the jmod has none.
  mutable std::optional<std::optional<ModuleInfo>> module;
  // Service name -> its provider-configuration file (META-INF/services/NAME), in entry order.
  std::vector<std::pair<std::string, std::variant<std::size_t, std::string>>> services;

  // The Module attribute of the source's module-info, read once; nothing without one.
  const std::optional<ModuleInfo>& module_info() const {
    if (!module) {
      const auto it = classes.find("module-info");
      if (it == classes.end()) {
        module.emplace(std::nullopt);
      } else {
        module.emplace(parse_class_file(read(it->second), origin_of(it->second)).module);
      }
    }
    return *module;
  }

  std::string origin_of(const std::variant<std::size_t, std::string>& where) const {
    if (const auto* index = std::get_if<std::size_t>(&where)) return archive->origin(*index);
    return (folder / std::get<std::string>(where)).string();
  }

  std::vector<std::uint8_t> read(const std::variant<std::size_t, std::string>& where) const {
    if (const auto* index = std::get_if<std::size_t>(&where)) return archive->read(*index);
    const fs::path file = folder / std::get<std::string>(where);
    std::ifstream in(file, std::ios::binary);
    if (!in) fail(file.string(), "cannot open class file for reading");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (in.bad()) fail(file.string(), "error while reading the class file");
    return bytes;
  }

  void index_archive(int target_release) {
    const auto& entries = archive->entries();
    if (archive->kind() == ZipArchive::Kind::kJmod) {
      for (std::size_t i = 0; i < entries.size(); ++i) {
        std::string_view entry = entries[i];
        if (entry.substr(0, kJmodClassesPrefix.size()) != kJmodClassesPrefix) continue;
        if (!ends_with(entry, kClassSuffix)) continue;
        entry.remove_prefix(kJmodClassesPrefix.size());
        entry.remove_suffix(kClassSuffix.size());
        classes.emplace(std::string(entry), i);
      }
      return;
    }
    bool multi_release = false;
    if (const auto manifest = archive->find(kManifest)) {
      multi_release = manifest_is_multi_release(archive->read(*manifest));
    }
    std::unordered_map<std::string, std::pair<int, std::size_t>> versioned;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      std::string_view entry = entries[i];
      if (const auto service = service_of(entry)) services.emplace_back(std::string(*service), i);
      if (!ends_with(entry, kClassSuffix)) continue;
      if (const auto split = split_versioned(entry)) {
        const auto [version, rest] = *split;
        if (!multi_release || version < kFirstVersionedRelease || version > target_release) {
          continue;
        }
        std::string name(rest.substr(0, rest.size() - kClassSuffix.size()));
        auto [it, inserted] = versioned.try_emplace(std::move(name), version, i);
        if (!inserted && it->second.first < version) it->second = {version, i};
        continue;
      }
      if (entry.substr(0, 9) == "META-INF/") continue;  // not a class location
      entry.remove_suffix(kClassSuffix.size());
      classes.emplace(std::string(entry), i);  // keeps the first of duplicate names
    }
    for (auto& [name, best] : versioned) classes[name] = best.second;
  }

  void index_folder() {
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, ec);
    const fs::recursive_directory_iterator end;
    for (; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      if (!it->is_regular_file(type_ec)) continue;
      const fs::path& file = it->path();
      const std::string relative = file.lexically_relative(folder).generic_string();
      if (const auto service = service_of(relative)) {
        services.emplace_back(std::string(*service), relative);
        continue;
      }
      if (file.extension() != kClassSuffix) continue;
      classes.emplace(relative.substr(0, relative.size() - kClassSuffix.size()), relative);
    }
    if (ec) fail(name, "cannot list the class folder: " + ec.message());
  }
};

ClassPath::ClassPath(int target_release) : target_release_(target_release) {}
ClassPath::ClassPath(ClassPath&&) noexcept = default;
ClassPath& ClassPath::operator=(ClassPath&&) noexcept = default;
ClassPath::~ClassPath() = default;

void ClassPath::add(const fs::path& entry) {
  add_source(entry, false);
}

void ClassPath::add_source(const fs::path& entry, bool jdk) {
  auto source = std::make_unique<Source>();
  source->name = entry.string();
  std::error_code ec;
  const fs::file_status status = fs::status(entry, ec);
  if (!fs::exists(status)) fail(source->name, "no such file or directory");
  if (fs::is_directory(status)) {
    source->folder = entry;
    source->index_folder();
  } else {
    source->archive.emplace(ZipArchive::open(entry));
    source->index_archive(target_release_);
  }
  (jdk ? jdk_ : application_).push_back(std::move(source));
}

void ClassPath::add_jdk(const fs::path& home) {
  std::error_code ec;
  if (!fs::is_directory(home, ec)) fail(home.string(), "no such JDK directory");
  const fs::path jmods = home / "jmods";
  if (!fs::is_directory(jmods, ec)) {
    fail(home.string(), "not a JDK with jmods (no " + jmods.string() +
                            "); JDK images without jmods are not supported");
  }
  std::vector<fs::path> modules;
  for (fs::directory_iterator it(jmods, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".jmod") modules.push_back(it->path());
  }
  if (ec) fail(jmods.string(), "cannot list the jmods folder: " + ec.message());
  if (modules.empty()) fail(jmods.string(), "no .jmod files in the JDK's jmods folder");
  std::sort(modules.begin(), modules.end());
  for (const fs::path& module : modules) add_source(module, true);
}

bool ClassPath::contains(std::string_view binary_name) const {
  return locate(binary_name).has_value();
}

// The first source defining binary_name, the JDK's before the application's (JDK classes
// cannot be replaced from the class path), and where in it the class is.
std::optional<ClassPath::Found> ClassPath::find(std::string_view binary_name, bool jdk_only) const {
  const std::string key(binary_name);
  for (const auto* sources : {&jdk_, &application_}) {
    if (jdk_only && sources == &application_) break;
    for (const auto& source : *sources) {
      const auto it = source->classes.find(key);
      if (it != source->classes.end()) return Found{source.get(), &it->second};
    }
  }
  return std::nullopt;
}

bool ClassPath::in_jdk(std::string_view binary_name) const {
  return find(binary_name, true).has_value();
}

std::optional<ModuleAccess> ClassPath::jdk_module_access(std::string_view binary_name) const {
  const auto found = find(binary_name, true);
  if (!found) return std::nullopt;
  const Source& source = *found->source;
  const auto& module = source.module_info();
  if (!module) return ModuleAccess{fs::path(source.name).stem().string(), true, true};
  const std::string_view package = package_of(binary_name);
  const bool open = module->open || to_all(module->opens, package);
  return ModuleAccess{module->name, to_all(module->exports, package), open};
}

std::optional<std::string> ClassPath::locate(std::string_view binary_name) const {
  const auto found = find(binary_name, false);
  if (!found) return std::nullopt;
  return found->source->origin_of(*found->where);
}

std::optional<ClassBytes> ClassPath::read(std::string_view binary_name) const {
  const auto found = find(binary_name, false);
  if (!found) return std::nullopt;
  return ClassBytes{found->source->origin_of(*found->where), found->source->read(*found->where)};
}

std::optional<ClassBytes> ClassPath::read_from_entries(std::string_view binary_name) const {
  const std::string key(binary_name);
  for (const auto& source : application_) {
    const auto it = source->classes.find(key);
    if (it != source->classes.end()) {
      return ClassBytes{source->origin_of(it->second), source->read(it->second)};
    }
  }
  return std::nullopt;
}

std::vector<ServiceFile> ClassPath::service_files() const {
  std::vector<ServiceFile> files;
  for (const auto& source : application_) {
    // A folder lists its files in no fixed order: sorted, the run is the same on every machine.
    auto services = source->services;
    std::stable_sort(services.begin(), services.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [service, where] : services)
      files.push_back({source->origin_of(where), service, source->read(where)});
  }
  return files;
}

std::vector<ModuleProvider> ClassPath::jdk_module_providers() const {
  std::vector<ModuleProvider> providers;
  for (const auto& source : jdk_) {
    const auto& module = source->module_info();
    if (!module) continue;
    const std::string origin = source->origin_of(source->classes.at("module-info"));
    for (const ModuleProvides& provides : module->provides)
      for (const std::string& provider : provides.with)
        providers.push_back({provides.service, provider, origin});
  }
  return providers;
}

std::vector<std::string> ClassPath::entry_class_names() const {
  std::set<std::string> names;
  for (const auto& source : application_) {
    for (const auto& [name, where] : source->classes) {
      if (!is_module_info(name)) names.insert(name);
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> ClassPath::class_names(bool include_jdk) const {
  std::set<std::string> jdk_names;
  for (const auto& source : jdk_) {
    for (const auto& [name, where] : source->classes) jdk_names.insert(name);
  }
  std::set<std::string> names;
  if (include_jdk) names = jdk_names;
  for (const auto& source : application_) {
    for (const auto& [name, where] : source->classes) {
      if (!jdk_names.contains(name)) names.insert(name);
    }
  }
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& name : names) {
    if (!is_module_info(name)) out.push_back(name);
  }
  return out;
}

std::optional<fs::path> find_default_jdk(std::string_view path_variable, const fs::path& jvm_dir) {
  std::error_code ec;
  const auto has_jmods = [&](const fs::path& home) { return fs::is_directory(home / "jmods", ec); };
  std::size_t start = 0;
  while (start <= path_variable.size()) {
    std::size_t end = path_variable.find(':', start);
    if (end == std::string_view::npos) end = path_variable.size();
    const std::string_view dir = path_variable.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    const fs::path java = fs::path(dir) / "java";
    if (!fs::is_regular_file(java, ec) || ::access(java.c_str(), X_OK) != 0) continue;
    const fs::path real = fs::canonical(java, ec);
    if (ec) continue;
    const fs::path home = real.parent_path().parent_path();
    if (has_jmods(home)) return home;
  }
  std::vector<fs::path> candidates;
  for (fs::directory_iterator it(jvm_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().starts_with("java-17-openjdk-")) {
      candidates.push_back(it->path());
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (const fs::path& home : candidates) {
    if (has_jmods(home)) return home;
  }
  return std::nullopt;
}

std::optional<fs::path> find_default_jdk() {
  const char* path = std::getenv("PATH");
  return find_default_jdk(path == nullptr ? "" : path);
}

std::optional<int> jdk_release(const fs::path& home) {
  std::ifstream in(home / "release");
  std::string line;
  while (std::getline(in, line)) {
    constexpr std::string_view kKey = "JAVA_VERSION=";
    if (!line.starts_with(kKey)) continue;
    std::string_view value = trim(std::string_view(line).substr(kKey.size()));
    if (!value.empty() && value.front() == '"') value.remove_prefix(1);
    if (value.starts_with("1.")) value.remove_prefix(2);  // 1.8.0 -> 8
    int release = 0;
    std::size_t digits = 0;
    while (digits < value.size() && digits < 4 && value[digits] >= '0' && value[digits] <= '9') {
      release = release * 10 + (value[digits] - '0');
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    return release;
  }
  return std::nullopt;
}

}  // namespace refract::frontend
