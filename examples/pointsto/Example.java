// The Java program whose facts are in this directory (pointsto.datalog reads
// them). It is reference only: the build does not compile it, and the facts
// were written from it by make_facts.py, which lowers each method to the
// three-address statements Soot's Jimple would give (one allocation, copy,
// field access or call per statement; the implicit super() call of every
// constructor included). EXPECTED.md derives the analysis results by hand.
//
// Classes (with java.lang.Object and java.lang.String, a dozen types): an
// interface Shape with two implementations, Circle and Square; a Point; a
// Canvas that remembers the last shape drawn; two containers, a one-slot Box
// and a linked Stack of Nodes; a static factory Shapes; and Example, the entry.
package ex;

interface Shape {
    Shape resize(int factor);
    void draw(Canvas canvas);
}

class Point {
}

class Circle implements Shape {
    Point center;

    Circle(Point center) {
        this.center = center;
    }

    public Shape resize(int factor) {
        Circle bigger = new Circle(this.center);
        return bigger;
    }

    public void draw(Canvas canvas) {
        canvas.record(this);
    }
}

class Square implements Shape {
    Point corner;

    Square(Point corner) {
        this.corner = corner;
    }

    // Never called: the only resize() call site sees Circles only.
    public Shape resize(int factor) {
        Point p = new Point();
        return new Square(p);
    }

    public void draw(Canvas canvas) {
        canvas.record(this);
    }
}

class Canvas {
    Shape last;

    void record(Shape s) {
        this.last = s;
    }
}

class Box {
    Object item;

    void put(Object o) {
        this.item = o;
    }

    Object get() {
        return this.item;
    }
}

class Node {
    Object value;
    Node next;

    Node(Object value, Node next) {
        this.value = value;
        this.next = next;
    }
}

class Stack {
    Node top;

    void push(Object o) {
        Node n = new Node(o, this.top);
        this.top = n;
    }

    Object pop() {
        Node n = this.top;
        this.top = n.next;
        return n.value;
    }
}

class Shapes {
    static Shape circleAt(Point p) {
        return new Circle(p);
    }

    static Shape squareAt(Point p) {
        return new Square(p);
    }
}

public class Example {
    public static void main(String[] args) {
        Point origin = new Point();
        Shape c = Shapes.circleAt(origin);
        Shape s = Shapes.squareAt(origin);
        Canvas canvas = new Canvas();
        c.draw(canvas);             // c holds only a Circle: Circle.draw alone
        Box box = new Box();
        box.put(c);
        Shape c2 = (Shape) box.get();
        Shape big = c2.resize(2);   // the box holds only a Circle: Circle.resize alone
        Stack stack = new Stack();
        stack.push(s);
        stack.push(big);
        Shape top = (Shape) stack.pop();
        top.draw(canvas);           // a Square or a Circle: both draw() methods
    }
}
