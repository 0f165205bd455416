package archlab.testreport;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * The order in which a class declares its methods, read from its class file. The trap it avoids: neither
 * reflection nor JUnit gives the source order. {@link Class#getDeclaredMethods()} returns methods "in no
 * particular order", and Jupiter runs them in its own deterministic but intentionally non-obvious order; a table
 * sorted either way would reshuffle when an unrelated method is added. javac writes a class's methods to its class
 * file in the order the source declares them, so that order is the source order, read without the source.
 *
 * <p>Thread-safety: safe (a {@link ClassValue} per class).
 */
final class DeclarationOrder {

    /** Per class: {@code name + descriptor} of each method it declares, to its position in the class file. */
    private static final ClassValue<Map<String, Integer>> POSITIONS = new ClassValue<>() {
        @Override
        protected Map<String, Integer> computeValue(Class<?> type) {
            String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
            try (InputStream in = type.getResourceAsStream(file)) {
                return in == null ? Map.of() : methods(in);
            } catch (IOException e) {
                return Map.of(); // unreadable: such methods sort last, by name
            }
        }
    };

    private DeclarationOrder() {
    }

    /** @return the position of {@code method} among its declaring class's methods; {@link Integer#MAX_VALUE} if unknown */
    static int of(Method method) {
        String descriptor = MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString();
        return POSITIONS.get(method.getDeclaringClass()).getOrDefault(method.getName() + descriptor, Integer.MAX_VALUE);
    }

    /** Reads the methods table of a class file (JVMS §4.1), skipping everything before it. */
    private static Map<String, Integer> methods(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(stream));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.skipNBytes(4); // minor, major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF(); // the class file's modified UTF-8, as DataInput reads it
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // class, string, method type, module, package
                case 15 -> in.skipNBytes(3); // method handle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // int, float, refs, name and type, (invoke)dynamic
                case 5, 6 -> { // long, double: two entries
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        in.skipNBytes(6); // access flags, this class, super class
        in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.skipNBytes(6); // access flags, name, descriptor
            skipAttributes(in);
        }
        int methods = in.readUnsignedShort();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < methods; i++) {
            in.skipNBytes(2); // access flags
            String name = utf8[in.readUnsignedShort()];
            positions.putIfAbsent(name + utf8[in.readUnsignedShort()], i);
            skipAttributes(in);
        }
        return positions;
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int attributes = in.readUnsignedShort();
        for (int i = 0; i < attributes; i++) {
            in.skipNBytes(2); // name
            in.skipNBytes(in.readInt() & 0xFFFFFFFFL);
        }
    }
}
