// Translation of one method's bytecode into the IR of frontend/ir.hpp.
//
// The builder simulates the operand stack twice. The first pass is a data-flow analysis over
// basic blocks that infers the computational kind of every stack entry and local slot (as the
// JVM's type-inference verifier does, JVMS 4.10.2) and joins the definitions of each local
// slot into def-use webs: at a control-flow join, the definitions of a slot merge only if the
// slot is live there. The second pass emits statements, one web per local variable and one
// temporary per produced stack value; values still on the stack at the end of a block are
// copied into the next block's entry variables. Subroutines (jsr/ret) are not inlined: a ret
// continues at the return point of every jsr to its subroutine, and the locals the subroutine
// never stores to keep the values (kinds and webs) they had at the jsr.
//
// Only reachable code is translated. Code the JVM's verifier would reject (stack underflow or
// overflow, wrong operand kinds, stack shapes that disagree at a join, falling off the end of
// the code, bad descriptors) is a ClassFormatError "ORIGIN:OFFSET: method NAME DESC: ..." at the
// offending instruction's file offset.
#pragma once

#include "frontend/bytecode.hpp"
#include "frontend/class_file.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend {

// Translates `method` of `cls`. Methods without code (abstract, native) give an IR with
// has_body == false holding only `this` and the parameters.
MethodIr build_method_ir(const ClassFile& cls, const MethodInfo& method);
// The same with the method's code already decoded (decode_code(cls, method)).
MethodIr build_method_ir(const ClassFile& cls, const MethodInfo& method, const DecodedCode& code);

}  // namespace refract::frontend
