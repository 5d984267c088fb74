#include "frontend/zip_archive.hpp"

#include <zip.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "frontend/format_error.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

constexpr std::array<std::uint8_t, 4> kJmodMagic = {'J', 'M', 0x01, 0x00};

struct ArchiveCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct SourceFreer {
  void operator()(zip_source_t* source) const { zip_source_free(source); }
};
struct FileCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};
using ArchiveHandle = std::unique_ptr<zip_t, ArchiveCloser>;
using SourceHandle = std::unique_ptr<zip_source_t, SourceFreer>;
using FileHandle = std::unique_ptr<zip_file_t, FileCloser>;

// A zip_error_t that is always finalised.
class ZipError {
 public:
  ZipError() { zip_error_init(&error_); }
  ZipError(const ZipError&) = delete;
  ZipError& operator=(const ZipError&) = delete;
  ~ZipError() { zip_error_fini(&error_); }
  zip_error_t* get() { return &error_; }
  std::string text() { return zip_error_strerror(&error_); }

 private:
  zip_error_t error_;
};

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw InputError(SourceLocation{where, 0, 0}, message);
}

}  // namespace

struct ZipArchive::Impl {
  std::string name;
  Kind kind = Kind::kZip;
  std::vector<std::uint8_t> buffer;  // backing store of in-memory archives
  ArchiveHandle archive;
  std::vector<std::string> entries;
  std::unordered_map<std::string, std::size_t> index;

  void open_source(SourceHandle source) {
    ZipError error;
    zip_t* raw = zip_open_from_source(source.get(), ZIP_RDONLY, error.get());
    if (raw == nullptr) fail(name, "not a readable zip archive: " + error.text());
    source.release();  // the archive owns its source from now on
    archive.reset(raw);
    load_entries();
  }

  void load_entries() {
    const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
    if (count < 0) fail(name, "cannot list the entries of the zip archive");
    entries.reserve(static_cast<std::size_t>(count));
    for (zip_int64_t i = 0; i < count; ++i) {
      const char* entry = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), 0);
      if (entry == nullptr) {
        fail(name, "cannot read the name of entry " + std::to_string(i) + ": " +
                       zip_strerror(archive.get()));
      }
      entries.emplace_back(entry);
      index.emplace(entries.back(), entries.size() - 1);  // keeps the first of duplicate names
    }
  }
};

ZipArchive::ZipArchive(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

ZipArchive ZipArchive::open(const std::filesystem::path& path) {
  auto impl = std::make_unique<Impl>();
  impl->name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) fail(impl->name, "no such file");
  if (std::filesystem::is_directory(status)) fail(impl->name, "is a directory, not an archive");

  std::array<std::uint8_t, 4> header{};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(impl->name, "cannot open for reading");
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    if (in.gcount() == static_cast<std::streamsize>(header.size()) && header == kJmodMagic) {
      impl->kind = Kind::kJmod;
    }
  }
  const zip_uint64_t start = impl->kind == Kind::kJmod ? kJmodMagic.size() : 0;
  ZipError error;
  SourceHandle source(zip_source_file_create(impl->name.c_str(), start, -1, error.get()));
  if (!source) fail(impl->name, "cannot open: " + error.text());
  impl->open_source(std::move(source));
  return ZipArchive(std::move(impl));
}

ZipArchive ZipArchive::open_buffer(std::vector<std::uint8_t> bytes, std::string name) {
  auto impl = std::make_unique<Impl>();
  impl->name = std::move(name);
  impl->buffer = std::move(bytes);
  std::size_t start = 0;
  if (impl->buffer.size() >= kJmodMagic.size() &&
      std::equal(kJmodMagic.begin(), kJmodMagic.end(), impl->buffer.begin())) {
    impl->kind = Kind::kJmod;
    start = kJmodMagic.size();
  }
  ZipError error;
  SourceHandle source(zip_source_buffer_create(impl->buffer.data() + start,
                                               impl->buffer.size() - start, 0, error.get()));
  if (!source) fail(impl->name, "cannot open: " + error.text());
  impl->open_source(std::move(source));
  return ZipArchive(std::move(impl));
}

const std::string& ZipArchive::name() const {
  return impl_->name;
}
ZipArchive::Kind ZipArchive::kind() const {
  return impl_->kind;
}
const std::vector<std::string>& ZipArchive::entries() const {
  return impl_->entries;
}

std::optional<std::size_t> ZipArchive::find(std::string_view entry) const {
  const auto it = impl_->index.find(std::string(entry));
  if (it == impl_->index.end()) return std::nullopt;
  return it->second;
}

std::string ZipArchive::origin(std::size_t index) const {
  return entry_origin(impl_->name, impl_->entries.at(index));
}

std::vector<std::uint8_t> ZipArchive::read(std::size_t index) const {
  if (index >= impl_->entries.size()) {
    fail(impl_->name, "no entry number " + std::to_string(index));
  }
  const std::string where = origin(index);
  zip_t* archive = impl_->archive.get();
  const auto zindex = static_cast<zip_uint64_t>(index);

  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_stat_index(archive, zindex, 0, &stat) != 0) {
    fail(where, std::string("cannot read entry: ") + zip_strerror(archive));
  }
  if ((stat.valid & ZIP_STAT_SIZE) != 0 && stat.size > kMaxEntrySize) {
    fail(where, "entry is " + std::to_string(stat.size) + " bytes, more than the limit of " +
                    std::to_string(kMaxEntrySize));
  }
  FileHandle file(zip_fopen_index(archive, zindex, 0));
  if (!file) fail(where, std::string("cannot read entry: ") + zip_strerror(archive));

  std::vector<std::uint8_t> out;
  // The declared size is only a hint: a hostile archive may lie about it.
  if ((stat.valid & ZIP_STAT_SIZE) != 0) {
    out.reserve(static_cast<std::size_t>(std::min<zip_uint64_t>(stat.size, 1 << 20)));
  }
  std::array<std::uint8_t, 64 * 1024> chunk;
  for (;;) {
    const zip_int64_t n = zip_fread(file.get(), chunk.data(), chunk.size());
    if (n < 0) {
      fail(where, std::string("corrupt entry data: ") + zip_file_strerror(file.get()));
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::uint64_t>(n) > kMaxEntrySize) {
      fail(where, "entry is larger than the limit of " + std::to_string(kMaxEntrySize) + " bytes");
    }
    out.insert(out.end(), chunk.begin(), chunk.begin() + n);
  }
  return out;
}

std::vector<std::uint8_t> ZipArchive::read(std::string_view entry) const {
  const auto index = find(entry);
  if (!index) fail(entry_origin(impl_->name, entry), "no such entry in the archive");
  return read(*index);
}

}  // namespace refract::frontend
