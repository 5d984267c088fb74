// An extractor's facts and state, and the walk that made them, kept as one file: the JDK's
// start-up part (cli/program_facts.cpp) is read once per JDK and refract build, and every
// later analysis goes on from the file instead of reading those 4,000 classes again (issue 35,
// "a cache of what depends on the JDK alone: its facts"; cli/jdk_facts_cache.hpp).
//
// The file is a magic line, the payload (unsigned LEB128 numbers, strings as a length and
// bytes) and the payload's ContentHash as 32 hexadecimal digits: a truncated or changed file
// fails its checksum before anything of it is used.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"

namespace refract::frontend {

struct ExtractorSnapshot {
  FactDatabase facts;  // with the JDK part's sizes as marked
  ExtractorResumeState state;
  std::vector<std::string> queued;  // ProgramScope::queued(), every class of it read
  std::vector<std::string> loaded;  // the names of ClassHierarchy::loaded_classes()
  // The classes the walk named and the class path lacked (ClassHierarchy::phantoms()): another
  // class path that has one would read more.
  std::vector<std::string> phantoms;
};

// Writes atomically (support/atomic_file.hpp). `snapshot.facts` must have the schema's
// domains and relations (make_fact_schema).
void write_extractor_snapshot(const std::filesystem::path& file, const ExtractorSnapshot& snapshot);

// Reads a file write_extractor_snapshot wrote, into the schema's database. InputError naming
// the file and the byte where it is not one: a wrong magic, a checksum that differs, a
// domain or relation the schema does not have, a number out of its domain's range.
ExtractorSnapshot read_extractor_snapshot(const std::filesystem::path& file);

}  // namespace refract::frontend
