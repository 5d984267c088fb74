// The call graph WALA (Debian's libwala-java) builds for a program with the JDK, for
// bench/peers.sh: `java WalaCallGraph ALGORITHM JDK_CLASSES_DIR APP_JAR... MAIN OUT`, ALGORITHM
// 0-cfa or 0-1-cfa. JDK_CLASSES_DIR holds the JDK's classes rewritten to class-file version 52
// (WALA 1.5.2 reads no later one; shared/peers/README.md). Writes OUT (the reachable methods as
// Soot signatures, as refract's reachable-methods.txt names them, sorted) and prints one line
// of figures: seconds to build the class hierarchy and the call graph, nodes, methods.
// Reflection is off (ReflectionOptions.NONE), as in refract, which does not model it yet.

import com.ibm.wala.classLoader.BinaryDirectoryTreeModule;
import com.ibm.wala.classLoader.Language;
import com.ibm.wala.ipa.callgraph.AnalysisCacheImpl;
import com.ibm.wala.ipa.callgraph.AnalysisOptions;
import com.ibm.wala.ipa.callgraph.AnalysisScope;
import com.ibm.wala.ipa.callgraph.CallGraph;
import com.ibm.wala.ipa.callgraph.CGNode;
import com.ibm.wala.ipa.callgraph.Entrypoint;
import com.ibm.wala.ipa.callgraph.impl.Util;
import com.ibm.wala.ipa.callgraph.propagation.SSAPropagationCallGraphBuilder;
import com.ibm.wala.ipa.cha.ClassHierarchyFactory;
import com.ibm.wala.ipa.cha.IClassHierarchy;
import com.ibm.wala.types.ClassLoaderReference;
import com.ibm.wala.types.MethodReference;
import com.ibm.wala.types.TypeReference;
import java.io.File;
import java.io.PrintWriter;
import java.util.TreeSet;
import java.util.jar.JarFile;

public final class WalaCallGraph {
  private WalaCallGraph() {}

  // A WALA type name (`I`, `[Ljava/lang/String`) in Java source form (`int`, `java.lang.String[]`).
  static String javaName(TypeReference type) {
    String name = type.getName().toString();
    int dims = 0;
    while (name.charAt(dims) == '[') dims++;
    String base = name.substring(dims);
    String out;
    switch (base) {
      case "Z": out = "boolean"; break;
      case "B": out = "byte"; break;
      case "C": out = "char"; break;
      case "S": out = "short"; break;
      case "I": out = "int"; break;
      case "J": out = "long"; break;
      case "F": out = "float"; break;
      case "D": out = "double"; break;
      case "V": out = "void"; break;
      default: out = base.substring(1).replace('/', '.');
    }
    StringBuilder s = new StringBuilder(out);
    for (int i = 0; i < dims; i++) s.append("[]");
    return s.toString();
  }

  static String sootSignature(MethodReference m) {
    StringBuilder s = new StringBuilder("<");
    s.append(javaName(m.getDeclaringClass())).append(": ").append(javaName(m.getReturnType()))
        .append(' ').append(m.getName().toString()).append('(');
    for (int i = 0; i < m.getNumberOfParameters(); i++) {
      if (i > 0) s.append(',');
      s.append(javaName(m.getParameterType(i)));
    }
    return s.append(")>").toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println("usage: WalaCallGraph 0-cfa|0-1-cfa JDK_CLASSES_DIR APP_JAR... MAIN OUT");
      System.exit(2);
    }
    String algorithm = args[0];
    if (!algorithm.equals("0-cfa") && !algorithm.equals("0-1-cfa")) {
      System.err.println("unknown algorithm " + algorithm + " (expected 0-cfa or 0-1-cfa)");
      System.exit(2);
    }
    String main = args[args.length - 2];
    String out = args[args.length - 1];
    long start = System.nanoTime();
    AnalysisScope scope = AnalysisScope.createJavaAnalysisScope();
    scope.addToScope(ClassLoaderReference.Primordial, new BinaryDirectoryTreeModule(new File(args[1])));
    for (int i = 2; i < args.length - 2; i++) {
      scope.addToScope(ClassLoaderReference.Application, new JarFile(args[i]));
    }
    IClassHierarchy cha = ClassHierarchyFactory.make(scope);
    double chaSeconds = (System.nanoTime() - start) / 1e9;
    Iterable<Entrypoint> entrypoints =
        Util.makeMainEntrypoints(scope, cha, "L" + main.replace('.', '/'));
    AnalysisOptions options = new AnalysisOptions(scope, entrypoints);
    options.setReflectionOptions(AnalysisOptions.ReflectionOptions.NONE);
    AnalysisCacheImpl cache = new AnalysisCacheImpl();
    SSAPropagationCallGraphBuilder builder = algorithm.equals("0-cfa")
        ? Util.makeZeroCFABuilder(Language.JAVA, options, cache, cha, scope)
        : Util.makeZeroOneCFABuilder(Language.JAVA, options, cache, cha, scope);
    start = System.nanoTime();
    CallGraph graph = builder.makeCallGraph(options, null);
    double cgSeconds = (System.nanoTime() - start) / 1e9;
    TreeSet<String> methods = new TreeSet<>();
    for (CGNode node : graph) methods.add(sootSignature(node.getMethod().getReference()));
    try (PrintWriter w = new PrintWriter(out, "UTF-8")) {
      for (String m : methods) w.println(m);
    }
    System.out.printf("WALA %s cha_seconds %.1f callgraph_seconds %.1f nodes %d methods %d%n",
        algorithm, chaSeconds, cgSeconds, graph.getNumberOfNodes(), methods.size());
  }
}
