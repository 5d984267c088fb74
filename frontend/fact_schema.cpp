#include "frontend/fact_schema.hpp"

namespace refract::frontend {

FactDatabase make_fact_schema() {
  FactDatabase db;
  db.add_domain("V", "variables: <method>/name");
  db.add_domain("H",
                "heap objects: <method>/new T/n, string constants \"text\", <method>/concat/n");
  db.add_domain("T", "types in Java source form");
  db.add_domain("F", "fields <a.B: T f>");
  db.add_domain("M", "methods <a.B: R m(P)>");
  db.add_domain("I", "invocation sites <method>/Decl.name/n");
  db.add_domain("Z", "argument positions (parameters from 1)");

  auto rel = [&](const char* name, std::vector<FactAttribute> attributes, const char* meaning) {
    db.add_relation(name, std::move(attributes), meaning);
  };
  // Types and dispatch.
  rel("ClassType", {{"type", "T"}}, "a class (not an interface, not an array)");
  rel("InterfaceType", {{"type", "T"}}, "an interface");
  rel("AbstractType", {{"type", "T"}}, "an abstract class or an interface: never allocated");
  rel("PhantomType", {{"type", "T"}}, "a class referenced but absent from the class path");
  rel("ArrayType", {{"type", "T"}}, "an array type");
  rel("ComponentType", {{"array", "T"}, {"component", "T"}}, "the component type of an array");
  rel("DirectSuper", {{"sub", "T"}, {"super", "T"}}, "superclass and direct superinterfaces");
  rel("SubtypeOf", {{"sub", "T"}, {"super", "T"}},
      "sub may be assigned to super (reflexive, transitive, JVMS 6.5 checkcast)");
  rel("Dispatch", {{"type", "T"}, {"resolved", "M"}, {"selected", "M"}},
      "a virtual call resolved to `resolved` on an object of class type runs selected (JVMS "
      "5.4.6)");
  rel("FieldDeclared", {{"field", "F"}, {"type", "T"}}, "the class declaring a field");
  rel("FieldType", {{"field", "F"}, {"type", "T"}}, "the declared type of a field");
  rel("StaticField", {{"field", "F"}}, "a static field");
  // Methods.
  rel("MethodDeclared", {{"method", "M"}, {"type", "T"}}, "the class declaring a method");
  rel("ReturnType", {{"method", "M"}, {"type", "T"}}, "the declared return type (none if void)");
  rel("StaticMethod", {{"method", "M"}}, "a static method");
  rel("NativeMethod", {{"method", "M"}}, "a native method");
  rel("AbstractMethod", {{"method", "M"}}, "an abstract method");
  rel("ClassInit", {{"type", "T"}, {"method", "M"}}, "the static initialiser <clinit> of a class");
  rel("ThisVar", {{"method", "M"}, {"var", "V"}}, "the this variable of an instance method");
  rel("FormalParam", {{"method", "M"}, {"index", "Z"}, {"var", "V"}},
      "a reference-typed parameter (index from 1)");
  rel("ReturnVar", {{"method", "M"}, {"var", "V"}}, "a variable a return statement returns");
  rel("VarMethod", {{"var", "V"}, {"method", "M"}}, "the method a variable belongs to");
  rel("VarType", {{"var", "V"}, {"type", "T"}}, "the declared or inferred type of a variable");
  rel("InitTrigger", {{"method", "M"}, {"type", "T"}},
      "method may initialise type: new, static field access or static call (JVMS 5.5)");
  // Statements.
  rel("Alloc", {{"var", "V"}, {"heap", "H"}}, "var = a new object (allocation or constant)");
  rel("HeapType", {{"heap", "H"}, {"type", "T"}}, "the type of a heap object");
  rel("Assign", {{"to", "V"}, {"from", "V"}}, "to = from (copies and merges)");
  rel("Cast", {{"to", "V"}, {"from", "V"}, {"type", "T"}}, "to = (type) from");
  rel("Load", {{"base", "V"}, {"field", "F"}, {"to", "V"}}, "to = base.field");
  rel("Store", {{"base", "V"}, {"field", "F"}, {"from", "V"}}, "base.field = from");
  rel("ArrayLoad", {{"base", "V"}, {"to", "V"}}, "to = base[i] (reference arrays)");
  rel("ArrayStore", {{"base", "V"}, {"from", "V"}}, "base[i] = from (reference arrays)");
  rel("StaticLoad", {{"field", "F"}, {"to", "V"}}, "to = C.field");
  rel("StaticStore", {{"field", "F"}, {"from", "V"}}, "C.field = from");
  rel("VirtualCall", {{"invoke", "I"}, {"base", "V"}, {"resolved", "M"}},
      "invokevirtual/invokeinterface on base, resolved (JVMS 5.4.3.3-4); target by Dispatch");
  rel("SpecialCall", {{"invoke", "I"}, {"base", "V"}, {"target", "M"}},
      "invokespecial (JVMS 6.5 selection), or a call of a private nest-mate method");
  rel("StaticCall", {{"invoke", "I"}, {"target", "M"}}, "invokestatic, resolved");
  rel("CallIn", {{"invoke", "I"}, {"method", "M"}}, "the method containing a call site");
  rel("DeclaredTarget", {{"invoke", "I"}, {"method", "M"}},
      "the method a call instruction names, before resolution");
  rel("ActualArg", {{"invoke", "I"}, {"index", "Z"}, {"var", "V"}},
      "a reference-typed argument (index from 1)");
  rel("CallResult", {{"invoke", "I"}, {"var", "V"}}, "the variable receiving a call's result");
  rel("Throw", {{"var", "V"}}, "throw var");
  rel("Catch", {{"var", "V"}, {"type", "T"}},
      "a handler variable and a type it catches (Throwable for finally)");
  rel("CallHandler", {{"invoke", "I"}, {"handler", "V"}, {"type", "T"}},
      "an exception table entry covering the call: its handler's variable and caught type");
  rel("ThrowHandler", {{"var", "V"}, {"handler", "V"}, {"type", "T"}},
      "an exception table entry covering a throw of var: its handler's variable and caught type");
  // Strings, class constants, reflection, lambdas.
  rel("StringConstant", {{"heap", "H"}}, "a heap object that is a string constant");
  rel("ClassConstant", {{"var", "V"}, {"type", "T"}}, "var = type.class (ldc of a class)");
  rel("ConcatArg", {{"heap", "H"}, {"index", "Z"}, {"var", "V"}},
      "a string concatenation's dynamic argument at a recipe position");
  rel("ConcatText", {{"heap", "H"}, {"index", "Z"}, {"text", "H"}},
      "a string concatenation's constant text at a recipe position");
  rel("ReflectiveCall", {{"invoke", "I"}, {"method", "M"}},
      "a call site naming a method of java.lang.Class, java.lang.ClassLoader or java.lang.reflect");
  rel("LambdaImpl", {{"heap", "H"}, {"method", "M"}},
      "the implementation method of a lambda or method reference object");
  rel("ClassObject", {{"heap", "H"}, {"type", "T"}}, "the java.lang.Class object of a type");
  rel("StringNamesField", {{"string", "H"}, {"field", "F"}},
      "a string constant equal to a field's name");
  rel("EntryMethod", {{"method", "M"}}, "where the program starts (the main method)");
  // Reflection: members Class.getMethod/getField see, signatures, exact argument arrays, casts.
  rel("PublicMethod", {{"method", "M"}}, "a public method (ACC_PUBLIC)");
  rel("PublicField", {{"field", "F"}}, "a public field (ACC_PUBLIC)");
  rel("ProtectedMethod", {{"method", "M"}}, "a protected method (ACC_PROTECTED)");
  rel("ProtectedField", {{"field", "F"}}, "a protected field (ACC_PROTECTED)");
  rel("PublicType", {{"type", "T"}}, "a public class or interface (ACC_PUBLIC of the class file)");
  // Modules: what reflection from the class path may reach in the JDK (JLS 7.7).
  rel("ModuleType", {{"type", "T"}}, "a class of a named module: one of the JDK's");
  rel("ExportedType", {{"type", "T"}}, "a JDK class whose module exports its package to all");
  rel("OpenType", {{"type", "T"}}, "a JDK class whose module opens its package to all");
  rel("MethodParamType", {{"method", "M"}, {"index", "Z"}, {"type", "T"}},
      "the declared type of a parameter, primitive ones included (index from 1)");
  rel("MethodArity", {{"method", "M"}, {"count", "Z"}},
      "the number of declared parameters of a method of a class read");
  rel("ExactArgs", {{"invoke", "I"}, {"count", "Z"}},
      "a Method.invoke/Constructor.newInstance site whose argument array is known exactly, and "
      "its length");
  rel("ExactArgElement", {{"invoke", "I"}, {"index", "Z"}, {"var", "V"}},
      "with ExactArgs, a variable stored into the argument array at index-1");
  rel("ExactArgNull", {{"invoke", "I"}, {"index", "Z"}},
      "with ExactArgs, an element (index from 1) that no variable is stored into: null");
  rel("LookupParamCount", {{"invoke", "I"}, {"count", "Z"}},
      "a getMethod/getDeclaredMethod/getConstructor/getDeclaredConstructor site whose "
      "parameter-types array is known exactly, and its length");
  rel("ResultCast", {{"invoke", "I"}, {"type", "T"}},
      "a reflective call whose result is only ever cast: one tuple per cast type");
  return db;
}

}  // namespace refract::frontend
