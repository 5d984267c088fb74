// Where a reflective run stopped at a limit (--time-limit, --evaluation-limit, Solar's
// --reflection-budget), the reflective call sites ranked by what the inference had derived at
// each so far: the Solar paper's workflow (Sec. 4.5, 7.4) probes a program, annotates the sites
// that spread most and runs again, and a run too large to finish is the one that needs it.
// Only the recursive stratum's own relations are read: the report's relations and the
// soundness criteria come in strata after it, which a stopped run never reached.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "reflection/api.hpp"
#include "reflection/metaobject_sources.hpp"
#include "reflection/report.hpp"

namespace refract::reflection {

struct SiteSoFar {
  std::string site;    // invocation site id, `<caller>/Decl.name/n`
  std::string caller;  // Soot signature of the calling method
  std::optional<std::uint32_t> line;
  ApiKind kind = ApiKind::kForName;
  // newInstance: classes lazy heap modelling made for the site's objects ([L-Cast], [L-Inv],
  // [L-GSet]); the casts that made them, most types first
  std::uint64_t lazy_types = 0;
  std::vector<LazyCast> lazy_casts;
  std::uint64_t targets = 0;  // classes, methods and fields it resolved to, lazy ones included
  // for the newInstance, invoke, get and set calls ranked first: where their metaobjects came
  // from, what to annotate upstream of the call
  std::optional<SiteMetaobjects> metaobjects;
};

// How many of the sites ranked first get their metaobjects' sources.
inline constexpr std::size_t kSitesWithSources = 20;

// The sites with a target or a lazily made class so far, most spread first: a newInstance site
// by its lazily made classes, any other by its targets (Sec. 7.4's measures), then by site id.
// With `progress`, each of its two phases says on it how long it took (on a stopped run of a
// real program they read relations of hundreds of millions of tuples).
std::vector<SiteSoFar> sites_so_far(const ReportInputs& inputs, std::ostream* progress = nullptr);

// `stopped` says where and why the solve stopped; `mode` is the mode that was running.
void write_sites_so_far(const std::filesystem::path& file, const std::string& mode,
                        const std::string& stopped, const std::vector<SiteSoFar>& sites);

}  // namespace refract::reflection
