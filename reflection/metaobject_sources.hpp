// Where the metaobjects at a side-effect call came from, read off a solve a limit stopped: the
// entry and member-introspecting calls whose results hold them, and for each such lookup the
// entry calls whose unknown classes (c^u) its receiver had. Fig. 14's annotation sites for a
// run that never reached the locater (soundness.datalog computes those after the fixpoint,
// for flagged sites only): a stopped run's widest sites are what a user annotates next, and an
// invoke's targets are cut where its Method objects are made (Solar paper, Sec. 7.4's probe of
// checkstyle annotated a getMethods call, not the invoke).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reflection/api.hpp"
#include "reflection/report.hpp"

namespace refract::reflection {

struct MetaobjectSource {
  std::string site;  // the entry or member-introspecting call, `<caller>/Decl.name/n`
  ApiKind kind = ApiKind::kForName;
  std::optional<std::uint32_t> line;
  std::uint64_t metaobjects = 0;  // of the side-effect call's metaobjects, how many it returns
  // entry calls whose unknown classes reached its receiver, in the facts' order
  std::vector<std::string> unknown_classes_from;
};

struct SiteMetaobjects {
  std::uint64_t metaobjects = 0;  // Class, Method, Field and Constructor objects at the site
  std::uint64_t partial = 0;      // of those, with class or member unknown (c^u, m^u_u, ...)
  // of those, returned by no entry or member-introspecting call (a class literal's Class
  // object, an object [I-InvTp]'s transformation made, one the JDK's own code made)
  std::uint64_t unsourced = 0;
  std::vector<MetaobjectSource> sources;  // most metaobjects first, then in the facts' order
};

// For each side-effect call in `sites` (I elements, at most 32), its metaobject variable's
// objects as the engine holds them now (contexts projected away) and the calls that returned
// them.
std::map<std::uint64_t, SiteMetaobjects> metaobject_sources(
    const ReportInputs& inputs, const std::vector<std::uint64_t>& sites);

}  // namespace refract::reflection
