// The providers the class path's META-INF/services files list (frontend/service_files.hpp), as
// the input relation reflection/services.datalog reads:
//   ServiceProvider(service:T, provider:T)   provider is listed for service
// and the providers the JDK's modules declare (module-info `provides`, frontend/class_path.hpp):
//   ModuleServiceProvider(service:T, provider:T)
// and the services of those it did not read (`--jdk-providers skip`, or no literal given):
//   ModuleServiceUnread(service:T)
#pragma once

#include <set>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/fact_database.hpp"
#include "frontend/service_files.hpp"

namespace refract::reflection {

// Declares ServiceProvider, ModuleServiceProvider and ModuleServiceUnread in `facts` and fills
// them: the providers read, and the services of those not read (where the service was). A read
// provider or its service that is no T element (a class the front end did not read: skipped as
// bad, or a service the provider does not extend) adds no tuple and a warning
// "FILE:LINE:COL: ..." (the module-info's "JMOD!ENTRY: ...") to the result.
std::vector<std::string> add_service_provider_relations(
    frontend::FactDatabase& facts, const std::vector<frontend::ServiceProvider>& providers,
    const std::vector<frontend::ModuleProvider>& module_providers,
    const std::vector<frontend::ModuleProvider>& unread_module_providers);

// The services (Soot names, "java.nio.file.spi.FileSystemProvider") whose class literal the
// code of `facts` gives java.util.ServiceLoader.load or loadInstalled, directly or through one
// method that passes the Class parameter it is given on to them (the JDK's sound and
// resource-bundle helpers do). Copies between locals (Assign) are followed. What the front
// end reads the JDK modules' providers for (cli/program_facts.cpp): a service only named,
// in a signature or a literal used otherwise, is no load.
std::set<std::string> services_given_to_service_loader(const frontend::FactDatabase& facts);

}  // namespace refract::reflection
