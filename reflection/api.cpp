#include "reflection/api.hpp"

#include <algorithm>
#include <array>

namespace refract::reflection {

namespace {

// JDK 17's signatures (java.base), sorted by signature for the lookup.
constexpr std::array kApi = std::to_array<ApiMethod>({
    {"<java.lang.Class: boolean isInstance(java.lang.Object)>", ApiKind::kClassCast},
    {"<java.lang.Class: java.lang.Class forName(java.lang.Module,java.lang.String)>",
     ApiKind::kForName},
    {"<java.lang.Class: java.lang.Class forName(java.lang.String)>", ApiKind::kForName},
    {"<java.lang.Class: java.lang.Class forName(java.lang.String,boolean,java.lang.ClassLoader)>",
     ApiKind::kForName},
    {"<java.lang.Class: java.lang.Class getComponentType()>", ApiKind::kGetComponentType},
    {"<java.lang.Class: java.lang.Class getSuperclass()>", ApiKind::kGetSuperclass},
    {"<java.lang.Class: java.lang.Class[] getInterfaces()>", ApiKind::kGetInterfaces},
    {"<java.lang.Class: java.lang.Object cast(java.lang.Object)>", ApiKind::kClassCast},
    {"<java.lang.Class: java.lang.Object newInstance()>", ApiKind::kClassNewInstance},
    {"<java.lang.Class: java.lang.reflect.Constructor getConstructor(java.lang.Class[])>",
     ApiKind::kGetConstructor},
    {"<java.lang.Class: java.lang.reflect.Constructor getDeclaredConstructor(java.lang.Class[])>",
     ApiKind::kGetDeclaredConstructor},
    {"<java.lang.Class: java.lang.reflect.Constructor[] getConstructors()>",
     ApiKind::kGetConstructors},
    {"<java.lang.Class: java.lang.reflect.Constructor[] getDeclaredConstructors()>",
     ApiKind::kGetDeclaredConstructors},
    {"<java.lang.Class: java.lang.reflect.Field getDeclaredField(java.lang.String)>",
     ApiKind::kGetDeclaredField},
    {"<java.lang.Class: java.lang.reflect.Field getField(java.lang.String)>", ApiKind::kGetField},
    {"<java.lang.Class: java.lang.reflect.Field[] getDeclaredFields()>",
     ApiKind::kGetDeclaredFields},
    {"<java.lang.Class: java.lang.reflect.Field[] getFields()>", ApiKind::kGetFields},
    {"<java.lang.Class: java.lang.reflect.Method "
     "getDeclaredMethod(java.lang.String,java.lang.Class[])>",
     ApiKind::kGetDeclaredMethod},
    {"<java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])>",
     ApiKind::kGetMethod},
    {"<java.lang.Class: java.lang.reflect.Method[] getDeclaredMethods()>",
     ApiKind::kGetDeclaredMethods},
    {"<java.lang.Class: java.lang.reflect.Method[] getMethods()>", ApiKind::kGetMethods},
    {"<java.lang.ClassLoader: java.lang.Class loadClass(java.lang.String)>", ApiKind::kLoadClass},
    {"<java.lang.reflect.Array: java.lang.Object get(java.lang.Object,int)>", ApiKind::kArrayGet},
    {"<java.lang.reflect.Array: java.lang.Object newInstance(java.lang.Class,int)>",
     ApiKind::kArrayNewInstance},
    {"<java.lang.reflect.Array: java.lang.Object newInstance(java.lang.Class,int[])>",
     ApiKind::kArrayNewInstance},
    {"<java.lang.reflect.Array: void set(java.lang.Object,int,java.lang.Object)>",
     ApiKind::kArraySet},
    {"<java.lang.reflect.Constructor: java.lang.Object newInstance(java.lang.Object[])>",
     ApiKind::kConstructorNewInstance},
    {"<java.lang.reflect.Field: boolean getBoolean(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: byte getByte(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: char getChar(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: double getDouble(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: float getFloat(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: int getInt(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: java.lang.Object get(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: long getLong(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: short getShort(java.lang.Object)>", ApiKind::kFieldGet},
    {"<java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setBoolean(java.lang.Object,boolean)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setByte(java.lang.Object,byte)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setChar(java.lang.Object,char)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setDouble(java.lang.Object,double)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setFloat(java.lang.Object,float)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setInt(java.lang.Object,int)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setLong(java.lang.Object,long)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Field: void setShort(java.lang.Object,short)>", ApiKind::kFieldSet},
    {"<java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>",
     ApiKind::kMethodInvoke},
    {"<java.lang.reflect.Proxy: java.lang.Object "
     "newProxyInstance(java.lang.ClassLoader,java.lang.Class[],java.lang.reflect.InvocationHandler)"
     ">",
     ApiKind::kProxyNewInstance},
});

struct KindName {
  ApiKind kind;
  std::string_view name;
};

constexpr std::array kNames = std::to_array<KindName>({
    {ApiKind::kForName, "Class.forName"},
    {ApiKind::kLoadClass, "ClassLoader.loadClass"},
    {ApiKind::kGetSuperclass, "Class.getSuperclass"},
    {ApiKind::kGetInterfaces, "Class.getInterfaces"},
    {ApiKind::kGetComponentType, "Class.getComponentType"},
    {ApiKind::kGetMethod, "Class.getMethod"},
    {ApiKind::kGetDeclaredMethod, "Class.getDeclaredMethod"},
    {ApiKind::kGetMethods, "Class.getMethods"},
    {ApiKind::kGetDeclaredMethods, "Class.getDeclaredMethods"},
    {ApiKind::kGetField, "Class.getField"},
    {ApiKind::kGetDeclaredField, "Class.getDeclaredField"},
    {ApiKind::kGetFields, "Class.getFields"},
    {ApiKind::kGetDeclaredFields, "Class.getDeclaredFields"},
    {ApiKind::kGetConstructor, "Class.getConstructor"},
    {ApiKind::kGetDeclaredConstructor, "Class.getDeclaredConstructor"},
    {ApiKind::kGetConstructors, "Class.getConstructors"},
    {ApiKind::kGetDeclaredConstructors, "Class.getDeclaredConstructors"},
    {ApiKind::kClassNewInstance, "Class.newInstance"},
    {ApiKind::kConstructorNewInstance, "Constructor.newInstance"},
    {ApiKind::kMethodInvoke, "Method.invoke"},
    {ApiKind::kFieldGet, "Field.get*"},
    {ApiKind::kFieldSet, "Field.set*"},
    {ApiKind::kArrayNewInstance, "Array.newInstance"},
    {ApiKind::kArrayGet, "Array.get"},
    {ApiKind::kArraySet, "Array.set"},
    {ApiKind::kClassCast, "Class.cast"},
    {ApiKind::kProxyNewInstance, "Proxy.newProxyInstance"},
});

}  // namespace

std::span<const ApiMethod> api_methods() {
  return kApi;
}

std::optional<ApiKind> api_kind(std::string_view signature) {
  const auto it =
      std::lower_bound(kApi.begin(), kApi.end(), signature,
                       [](const ApiMethod& m, std::string_view s) { return m.signature < s; });
  if (it == kApi.end() || it->signature != signature) return std::nullopt;
  return it->kind;
}

std::string_view kind_name(ApiKind kind) {
  for (const KindName& k : kNames)
    if (k.kind == kind) return k.name;
  return "?";
}

std::optional<ApiKind> kind_from_log_name(std::string_view name) {
  for (const KindName& k : kNames)
    if (k.name == name) return k.kind;
  return std::nullopt;
}

bool is_side_effect(ApiKind kind) {
  switch (kind) {
    case ApiKind::kClassNewInstance:
    case ApiKind::kConstructorNewInstance:
    case ApiKind::kMethodInvoke:
    case ApiKind::kFieldGet:
    case ApiKind::kFieldSet:
    case ApiKind::kArrayNewInstance:
    case ApiKind::kArrayGet:
    case ApiKind::kArraySet:
    case ApiKind::kProxyNewInstance:
      return true;
    default:
      return false;
  }
}

bool returns_metaobjects(ApiKind kind) {
  switch (kind) {
    case ApiKind::kForName:
    case ApiKind::kLoadClass:
    case ApiKind::kGetSuperclass:
    case ApiKind::kGetInterfaces:
    case ApiKind::kGetComponentType:
    case ApiKind::kGetMethod:
    case ApiKind::kGetDeclaredMethod:
    case ApiKind::kGetMethods:
    case ApiKind::kGetDeclaredMethods:
    case ApiKind::kGetField:
    case ApiKind::kGetDeclaredField:
    case ApiKind::kGetFields:
    case ApiKind::kGetDeclaredFields:
    case ApiKind::kGetConstructor:
    case ApiKind::kGetDeclaredConstructor:
    case ApiKind::kGetConstructors:
    case ApiKind::kGetDeclaredConstructors:
      return true;
    default:
      return false;
  }
}

std::map<std::uint64_t, ApiKind> api_call_sites(const frontend::FactDatabase& facts) {
  const std::vector<std::string>& methods = facts.domain("M").names();
  std::map<std::uint64_t, ApiKind> out;
  auto add = [&](std::uint64_t invoke, std::uint64_t method) {
    if (const auto kind = api_kind(methods[method])) out.emplace(invoke, *kind);
  };
  for (const auto& t : facts.relation("StaticCall").sorted_tuples()) add(t[0], t[1]);
  for (const auto& t : facts.relation("VirtualCall").sorted_tuples()) add(t[0], t[2]);
  for (const auto& t : facts.relation("SpecialCall").sorted_tuples()) add(t[0], t[2]);
  return out;
}

}  // namespace refract::reflection
