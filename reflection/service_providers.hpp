// The providers the class path's META-INF/services files list (frontend/service_files.hpp), as
// the input relation reflection/services.datalog reads:
//   ServiceProvider(service:T, provider:T)   provider is listed for service
#pragma once

#include <string>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/service_files.hpp"

namespace refract::reflection {

// Declares ServiceProvider in `facts` and fills it. A provider or service that is no T element
// (a class the front end did not read: skipped as bad, or a service the provider does not
// extend) adds no tuple and a warning "FILE:LINE:COL: ..." to the result.
std::vector<std::string> add_service_provider_relation(
    frontend::FactDatabase& facts, const std::vector<frontend::ServiceProvider>& providers);

}  // namespace refract::reflection
