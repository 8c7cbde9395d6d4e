package dev.hermes.state.bench.process;

/** The hello-world of the W8 target, packed by the benchmark into its own one-class jar. */
public final class HelloWorld {
    private HelloWorld() {
    }

    public static void main(String[] args) {
        System.out.println("Hello, world");
    }
}
