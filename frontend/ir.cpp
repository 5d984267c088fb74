#include "frontend/ir.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include "frontend/ir_dynamic.hpp"

namespace refract::frontend {
namespace {

using ir_detail::number_text;
using ir_detail::quoted_text;

std::string_view reference_kind_name(ReferenceKind kind) {
  switch (kind) {
    case ReferenceKind::kGetField:
      return "getfield";
    case ReferenceKind::kGetStatic:
      return "getstatic";
    case ReferenceKind::kPutField:
      return "putfield";
    case ReferenceKind::kPutStatic:
      return "putstatic";
    case ReferenceKind::kInvokeVirtual:
      return "invokevirtual";
    case ReferenceKind::kInvokeStatic:
      return "invokestatic";
    case ReferenceKind::kInvokeSpecial:
      return "invokespecial";
    case ReferenceKind::kNewInvokeSpecial:
      return "newinvokespecial";
    case ReferenceKind::kInvokeInterface:
      return "invokeinterface";
  }
  return "?";
}

class StatementPrinter {
 public:
  StatementPrinter(const MethodIr& ir, const Statement& s) : ir_(ir), s_(s) {}

  std::string text() {
    switch (s_.kind) {
      case StatementKind::kThis:
        return dst() + " := @this: " + ir_.variables[s_.dst].type.to_java();
      case StatementKind::kParameter:
        return dst() + " := @parameter" + std::to_string(s_.payload) + ": " +
               ir_.signature.parameters.at(s_.payload).to_java();
      case StatementKind::kAssign:
        return dst() + " = " + arg(0);
      case StatementKind::kStringConstant:
        return dst() + " = " + quoted_text(ir_.strings.at(s_.payload));
      case StatementKind::kClassConstant:
        return dst() + " = class " + ir_.types.at(s_.payload).to_java();
      case StatementKind::kMethodTypeConstant:
        return dst() + " = methodtype " + ir_.strings.at(s_.payload);
      case StatementKind::kMethodHandleConstant:
        return dst() + " = methodhandle " + method_handle_text(ir_.method_handles.at(s_.payload));
      case StatementKind::kDynamicConstant:
        return dst() + " = dynamicconstant " + dynamic_text() + " [unsupported]";
      case StatementKind::kNew:
        return dst() + " = new " + ir_.types.at(s_.payload).to_java();
      case StatementKind::kNewArray:
        return dst() + " = newarray (" + ir_.types.at(s_.payload).element().to_java() + ")[" +
               arg(0) + "]";
      case StatementKind::kLambda:
        return dst() + " = " + lambda_text();
      case StatementKind::kStringConcat:
        return dst() + " = " + concat_text();
      case StatementKind::kFieldLoad:
        return dst() + " = " + operand(s_.base) + "." + field_text(ir_.fields.at(s_.payload));
      case StatementKind::kFieldStore:
        return operand(s_.base) + "." + field_text(ir_.fields.at(s_.payload)) + " = " + arg(0);
      case StatementKind::kStaticLoad:
        return dst() + " = " + field_text(ir_.fields.at(s_.payload));
      case StatementKind::kStaticStore:
        return field_text(ir_.fields.at(s_.payload)) + " = " + arg(0);
      case StatementKind::kArrayLoad:
        return dst() + " = " + operand(s_.base) + "[" + arg(0) + "]";
      case StatementKind::kArrayStore:
        return operand(s_.base) + "[" + arg(0) + "] = " + arg(1);
      case StatementKind::kInvoke:
        return assigned() + invoke_text();
      case StatementKind::kInvokeDynamic:
        return assigned() + "dynamicinvoke " + dynamic_text() + args_text(0) + " [unsupported]";
      case StatementKind::kReturn:
        return s_.args.empty() ? "return" : "return " + arg(0);
      case StatementKind::kThrow:
        return "throw " + arg(0);
      case StatementKind::kCatch:
        return dst() + " = @caughtexception " + catch_text();
      case StatementKind::kCast:
        return dst() + " = (" + ir_.types.at(s_.payload).to_java() + ") " + arg(0);
      case StatementKind::kInstanceOf:
        return dst() + " = " + arg(0) + " instanceof " + ir_.types.at(s_.payload).to_java();
      case StatementKind::kPrimitiveOp:
        return dst() + " = " + std::string(opcode_name(s_.opcode)) + args_text(0);
      case StatementKind::kIf:
        return "if " + std::string(opcode_name(s_.opcode)) + args_text(0) + " goto @" +
               std::to_string(s_.payload);
      case StatementKind::kGoto:
        return "goto @" + std::to_string(s_.payload);
      case StatementKind::kSwitch:
        return "switch(" + arg(0) + ") " + switch_text();
      case StatementKind::kMonitorEnter:
        return "entermonitor " + arg(0);
      case StatementKind::kMonitorExit:
        return "exitmonitor " + arg(0);
      case StatementKind::kJsr:
        return dst() + " = jsr @" + std::to_string(s_.payload);
      case StatementKind::kRet:
        return "ret " + arg(0) + " " + ret_text();
    }
    return "?";
  }

 private:
  std::string var(VarId v) const {
    if (v == kNoVar || v >= ir_.variables.size()) return "?";
    return ir_.variables[v].name;
  }
  std::string dst() const { return var(s_.dst); }
  std::string assigned() const { return s_.dst == kNoVar ? "" : var(s_.dst) + " = "; }

  std::string operand(const Operand& o) const {
    switch (o.kind) {
      case Operand::Kind::kNone:
        return "?";
      case Operand::Kind::kVar:
        return var(o.var);
      case Operand::Kind::kInt:
        return std::to_string(o.int_value);
      case Operand::Kind::kLong:
        return std::to_string(o.int_value) + "L";
      case Operand::Kind::kFloat:
        return number_text(o.float_value) + "F";
      case Operand::Kind::kDouble:
        return number_text(o.double_value);
      case Operand::Kind::kNull:
        return "null";
    }
    return "?";
  }
  std::string arg(std::size_t i) const { return i < s_.args.size() ? operand(s_.args[i]) : "?"; }

  // "(a, b)" of the arguments from `first` on.
  std::string args_text(std::size_t first) const {
    std::string out = "(";
    for (std::size_t i = first; i < s_.args.size(); ++i) {
      if (i > first) out += ", ";
      out += operand(s_.args[i]);
    }
    return out + ")";
  }

  std::string invoke_text() const {
    const MethodRef& m = ir_.methods.at(s_.payload);
    const std::string target = method_text(m.owner, m.name, m.signature);
    switch (s_.opcode) {
      case Opcode::kInvokestatic:
        return "staticinvoke " + target + args_text(0);
      case Opcode::kInvokespecial:
        return "specialinvoke " + operand(s_.base) + "." + target + args_text(0);
      case Opcode::kInvokeinterface:
        return "interfaceinvoke " + operand(s_.base) + "." + target + args_text(0);
      default:
        return "virtualinvoke " + operand(s_.base) + "." + target + args_text(0);
    }
  }

  std::string dynamic_text() const {
    const DynamicSite& d = ir_.dynamic_sites.at(s_.payload);
    std::string out = quoted_text(d.name) + " " + d.descriptor + " bootstrap " +
                      method_handle_text(d.bootstrap) + "[";
    for (std::size_t i = 0; i < d.bootstrap_args.size(); ++i) {
      if (i > 0) out += ", ";
      out += d.bootstrap_args[i];
    }
    return out + "]";
  }

  std::string lambda_text() const {
    const LambdaInfo& l = ir_.lambdas.at(s_.payload);
    std::string out = "lambda " + l.class_name + " implements " + l.interface_type.to_java() + "." +
                      l.method_name + l.method_descriptor;
    for (const JavaType& marker : l.marker_interfaces) out += ", " + marker.to_java();
    out += " calls " + method_handle_text(l.implementation) + " capturing " + args_text(0);
    return out;
  }

  std::string concat_text() const {
    const ConcatInfo& c = ir_.concats.at(s_.payload);
    std::string out = "concat(";
    for (std::size_t i = 0; i < c.parts.size(); ++i) {
      if (i > 0) out += ", ";
      const ConcatPart& p = c.parts[i];
      out += p.is_arg ? arg(p.arg) : quoted_text(p.text);
    }
    return out + ")";
  }

  std::string catch_text() const {
    const CatchClause& c = ir_.catches.at(s_.payload);
    std::string out;
    for (const JavaType& t : c.types) {
      if (!out.empty()) out += "|";
      out += t.to_java();
    }
    if (c.any) out += out.empty() ? "any" : "|any";
    return out;
  }

  std::string switch_text() const {
    const SwitchTable& t = ir_.switches.at(s_.payload);
    std::string out = "{";
    for (std::size_t i = 0; i < t.keys.size(); ++i) {
      out += std::to_string(t.keys[i]) + ": @" + std::to_string(t.targets[i]) + ", ";
    }
    return out + "default: @" + std::to_string(t.default_target) + "}";
  }

  std::string ret_text() const {
    const SwitchTable& t = ir_.switches.at(s_.payload);
    std::string out = "(";
    for (std::size_t i = 0; i < t.targets.size(); ++i) {
      if (i > 0) out += ", ";
      out += "@" + std::to_string(t.targets[i]);
    }
    return out + ")";
  }

  const MethodIr& ir_;
  const Statement& s_;
};

}  // namespace

std::size_t statement_at(const MethodIr& ir, std::uint32_t pc) {
  const auto it = std::lower_bound(ir.statements.begin(), ir.statements.end(), pc,
                                   [](const Statement& s, std::uint32_t p) { return s.pc < p; });
  return static_cast<std::size_t>(it - ir.statements.begin());
}

std::string_view value_kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt:
      return "int";
    case ValueKind::kLong:
      return "long";
    case ValueKind::kFloat:
      return "float";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kReference:
      return "reference";
    case ValueKind::kReturnAddress:
      return "returnAddress";
  }
  return "?";
}

ValueKind value_kind_of(const JavaType& type) {
  if (type.is_reference()) return ValueKind::kReference;
  switch (type.base) {
    case BaseKind::kLong:
      return ValueKind::kLong;
    case BaseKind::kFloat:
      return ValueKind::kFloat;
    case BaseKind::kDouble:
      return ValueKind::kDouble;
    default:
      return ValueKind::kInt;
  }
}

std::string field_text(const FieldRef& field) {
  return "<" + field.owner.to_java() + ": " + field.type.to_java() + " " + field.name + ">";
}

std::string method_text(const JavaType& owner, std::string_view name,
                        const MethodDescriptor& signature) {
  return "<" + owner.to_java() + ": " + signature.return_type.to_java() + " " + std::string(name) +
         signature.parameters_to_java() + ">";
}

std::string method_handle_text(const MethodHandleInfo& handle) {
  std::string target;
  const bool field =
      handle.kind == ReferenceKind::kGetField || handle.kind == ReferenceKind::kGetStatic ||
      handle.kind == ReferenceKind::kPutField || handle.kind == ReferenceKind::kPutStatic;
  if (field) {
    const auto type = try_parse_field_descriptor(handle.descriptor);
    target = "<" + handle.owner.to_java() + ": " + (type ? type->to_java() : handle.descriptor) +
             " " + handle.name + ">";
  } else if (const auto signature = try_parse_method_descriptor(handle.descriptor)) {
    target = method_text(handle.owner, handle.name, *signature);
  } else {
    target = "<" + handle.owner.to_java() + ": " + handle.name + handle.descriptor + ">";
  }
  return std::string(reference_kind_name(handle.kind)) + " " + target;
}

std::string statement_text(const MethodIr& ir, const Statement& statement) {
  return StatementPrinter(ir, statement).text();
}

void print_method_ir(std::ostream& out, const MethodIr& ir) {
  out << method_text(JavaType::object(ir.class_name), ir.name, ir.signature);
  if (!ir.has_body) out << " // no code";
  out << " {\n";
  for (const Variable& v : ir.variables) {
    out << "  "
        << (v.kind == ValueKind::kReturnAddress ? std::string("returnAddress") : v.type.to_java())
        << " " << v.name << ";\n";
  }
  for (const Statement& s : ir.statements) {
    out << "  ";
    if (s.line == 0) {
      out << '?';
    } else {
      out << s.line;
    }
    out << " @" << s.pc << ": " << statement_text(ir, s) << "\n";
  }
  for (const Handler& h : ir.handlers) {
    out << "  catch " << (h.catch_type ? h.catch_type->to_java() : std::string("any")) << " [@"
        << h.start_pc << ", @" << h.end_pc << ") -> @" << h.handler_pc << ": "
        << (h.var == kNoVar ? std::string("unreachable") : ir.variables[h.var].name) << "\n";
  }
  out << "}\n";
}

std::string method_ir_text(const MethodIr& ir) {
  std::ostringstream out;
  print_method_ir(out, ir);
  return out.str();
}

}  // namespace refract::frontend
