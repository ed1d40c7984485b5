package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * A class that takes a monitor: a {@code synchronized} method (ACC_SYNCHRONIZED) or a {@code synchronized} block
 * (MONITORENTER). ArchUnit models the modifier of a method but not the monitor instructions of a block, so this
 * condition reads the class file itself with ASM.
 */
final class MonitorUse {

    private MonitorUse() {
    }

    /** Fails for each synchronized method and each method with a synchronized block of the class. */
    static ArchCondition<JavaClass> neverTakeAMonitor() {
        return new ArchCondition<>("never take a monitor (synchronized methods or blocks)") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                for (String use : monitorUses(javaClass)) {
                    events.add(SimpleConditionEvent.violated(javaClass, use));
                }
            }
        };
    }

    static List<String> monitorUses(JavaClass javaClass) {
        List<String> uses = new ArrayList<>();
        String owner = javaClass.getName();
        try (InputStream in = classFile(javaClass)) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                        String[] exceptions) {
                    String method = "Method <" + owner + "." + name + parameters(descriptor) + ">";
                    if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                        uses.add(method + " is synchronized");
                    }
                    return new MethodVisitor(Opcodes.ASM9) {
                        private boolean reported;

                        @Override
                        public void visitInsn(int opcode) {
                            if (opcode == Opcodes.MONITORENTER && !reported) {
                                reported = true;
                                uses.add(method + " has a synchronized block");
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class file of " + owner, e);
        }
        return uses;
    }

    /** The parameter list as ArchUnit writes it, {@code (java.util.Map, long)}, so violations read like ArchUnit's own. */
    private static String parameters(String descriptor) {
        StringJoiner joined = new StringJoiner(", ", "(", ")");
        for (Type parameter : Type.getArgumentTypes(descriptor)) {
            joined.add(parameter.getClassName());
        }
        return joined.toString();
    }

    private static InputStream classFile(JavaClass javaClass) throws IOException {
        if (javaClass.getSource().isPresent()) {
            return javaClass.getSource().get().getUri().toURL().openStream();
        }
        String resource = javaClass.getName().replace('.', '/') + ".class";
        InputStream in = MonitorUse.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IOException("no class file " + resource);
        }
        return in;
    }
}
