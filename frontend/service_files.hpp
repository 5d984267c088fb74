// Provider-configuration files of Java's service-provider mechanism (java.util.ServiceLoader):
// `META-INF/services/SERVICE` in a jar or class folder of the class path lists, one binary class
// name a line, the classes that provide SERVICE. ServiceLoader reads them and loads the names
// with Class.forName, so the providers are reflective targets the class path itself names.
//
// Format (java.util.ServiceLoader's documentation): UTF-8; `#` starts a comment that runs to the
// end of the line; blanks and tabs around a name are ignored; a line that is blank (after the
// comment is cut) names nothing; every other line holds one binary name ("a.b.C$D"), dotted
// Java identifiers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/error.hpp"

namespace refract::frontend {

// One provider a configuration file lists.
struct ServiceProvider {
  std::string service;   // binary name with dots, from the entry name: "java.sql.Driver"
  std::string provider;  // binary name with dots, as listed: "org.hsqldb.jdbc.JDBCDriver"
  SourceLocation where;  // "JAR!META-INF/services/java.sql.Driver", its line and column
};

// What a line that lists no usable provider is wrong with: the file, line and column and why.
struct ServiceWarning {
  SourceLocation where;
  std::string message;

  // "FILE:LINE:COL: message"
  std::string to_string() const;
};

struct ServiceProviders {
  std::vector<ServiceProvider> providers;  // in file order; a name listed twice, once
  std::vector<ServiceWarning> warnings;
};

// Whether `name` is a binary class name ServiceLoader accepts: dot-separated, each part a Java
// identifier (letters, digits, `_`, `$`, not starting with a digit; bytes of UTF-8 sequences
// count as letters).
bool is_binary_class_name(std::string_view name);

// The providers of the file `text`, whose entry `origin` ("JAR!META-INF/services/S") names
// `service` (dots). A malformed line is a warning at its line and column, and lists nothing.
// A service name that is no binary class name is one warning for the whole file.
ServiceProviders parse_service_file(std::string_view service, std::string_view text,
                                    const std::string& origin);

}  // namespace refract::frontend
