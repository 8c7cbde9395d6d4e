package dev.hermes.state.cli.text;

/**
 * How many terminal columns a string takes. Chinese, Japanese, Korean and most emoji take two
 * columns, combining marks and invisible format characters none, ANSI colour sequences none: a
 * table that counted {@code String.length()} would be misaligned by the first title like
 * {@code 数据库迁移} or {@code 🚀 Launch plan}.
 */
public final class DisplayWidth {
    private static final char ESC = '\u001B';

    /** East Asian Wide/Fullwidth ranges and emoji with default emoji presentation (inclusive pairs). */
    private static final int[] WIDE = {
            0x1100, 0x115F, 0x231A, 0x231B, 0x2329, 0x232A, 0x23E9, 0x23EC, 0x23F0, 0x23F0, 0x23F3, 0x23F3,
            0x25FD, 0x25FE, 0x2614, 0x2615, 0x2648, 0x2653, 0x267F, 0x267F, 0x2693, 0x2693, 0x26A1, 0x26A1,
            0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE, 0x26CE, 0x26D4, 0x26D4, 0x26EA, 0x26EA,
            0x26F2, 0x26F3, 0x26F5, 0x26F5, 0x26FA, 0x26FA, 0x26FD, 0x26FD, 0x2705, 0x2705, 0x270A, 0x270B,
            0x2728, 0x2728, 0x274C, 0x274C, 0x274E, 0x274E, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797,
            0x27B0, 0x27B0, 0x27BF, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B50, 0x2B55, 0x2B55,
            0x2E80, 0x303E, 0x3041, 0x33FF, 0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xA000, 0xA4CF, 0xA960, 0xA97F,
            0xAC00, 0xD7A3, 0xF900, 0xFAFF, 0xFE10, 0xFE19, 0xFE30, 0xFE6F, 0xFF00, 0xFF60, 0xFFE0, 0xFFE6,
            0x16FE0, 0x16FE4, 0x17000, 0x18AFF, 0x1B000, 0x1B2FF, 0x1F004, 0x1F004, 0x1F0CF, 0x1F0CF,
            0x1F18E, 0x1F18E, 0x1F191, 0x1F19A, 0x1F200, 0x1F251, 0x1F300, 0x1F320, 0x1F32D, 0x1F335,
            0x1F337, 0x1F37C, 0x1F37E, 0x1F393, 0x1F3A0, 0x1F3CA, 0x1F3CF, 0x1F3D3, 0x1F3E0, 0x1F3F0,
            0x1F3F4, 0x1F3F4, 0x1F3F8, 0x1F43E, 0x1F440, 0x1F440, 0x1F442, 0x1F4FC, 0x1F4FF, 0x1F53D,
            0x1F54B, 0x1F54E, 0x1F550, 0x1F567, 0x1F57A, 0x1F57A, 0x1F595, 0x1F596, 0x1F5A4, 0x1F5A4,
            0x1F5FB, 0x1F64F, 0x1F680, 0x1F6C5, 0x1F6CC, 0x1F6CC, 0x1F6D0, 0x1F6D2, 0x1F6D5, 0x1F6D7,
            0x1F6EB, 0x1F6EC, 0x1F6F4, 0x1F6FC, 0x1F7E0, 0x1F7EB, 0x1F90C, 0x1F93A, 0x1F93C, 0x1F945,
            0x1F947, 0x1F9FF, 0x1FA70, 0x1FAFF, 0x20000, 0x2FFFD, 0x30000, 0x3FFFD,
    };

    private DisplayWidth() {
    }

    /** Columns taken by {@code text} in a terminal (ANSI escape sequences count zero). */
    public static int of(String text) {
        int width = 0;
        for (int i = 0; i < text.length(); ) {
            if (text.charAt(i) == ESC) {
                i = skipEscape(text, i);
                continue;
            }
            int codePoint = text.codePointAt(i);
            width += ofCodePoint(codePoint);
            i += Character.charCount(codePoint);
        }
        return width;
    }

    /** 0, 1 or 2 columns. */
    public static int ofCodePoint(int codePoint) {
        if (codePoint < 0x20 || codePoint == 0x7F) {
            return 0;
        }
        if (codePoint < 0x300) {
            return 1;
        }
        return switch (Character.getType(codePoint)) {
            case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.FORMAT, Character.CONTROL -> 0;
            default -> isWide(codePoint) ? 2 : 1;
        };
    }

    /**
     * {@code text} cut so that it takes at most {@code maxWidth} columns; a cut string ends with
     * {@code …} (which is counted). Escape sequences are kept only when the text is not cut.
     */
    public static String truncate(String text, int maxWidth) {
        if (of(text) <= maxWidth) {
            return text;
        }
        if (maxWidth <= 0) {
            return "";
        }
        StringBuilder cut = new StringBuilder();
        int width = 0;
        for (int i = 0; i < text.length(); ) {
            if (text.charAt(i) == ESC) {
                i = skipEscape(text, i);
                continue;
            }
            int codePoint = text.codePointAt(i);
            int next = ofCodePoint(codePoint);
            if (width + next > maxWidth - 1) {
                break;
            }
            cut.appendCodePoint(codePoint);
            width += next;
            i += Character.charCount(codePoint);
        }
        return cut.append('…').toString();
    }

    /** {@code text} followed by spaces up to {@code width} columns. */
    public static String padRight(String text, int width) {
        return text + " ".repeat(Math.max(0, width - of(text)));
    }

    /** Spaces then {@code text}, {@code width} columns in all. */
    public static String padLeft(String text, int width) {
        return " ".repeat(Math.max(0, width - of(text))) + text;
    }

    private static boolean isWide(int codePoint) {
        int low = 0;
        int high = WIDE.length / 2 - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (codePoint < WIDE[2 * middle]) {
                high = middle - 1;
            } else if (codePoint > WIDE[2 * middle + 1]) {
                low = middle + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /** Index just after an ANSI CSI sequence ({@code ESC [ ... letter}) starting at {@code start}. */
    private static int skipEscape(String text, int start) {
        int i = start + 1;
        if (i < text.length() && text.charAt(i) == '[') {
            i++;
            while (i < text.length() && !Character.isLetter(text.charAt(i))) {
                i++;
            }
        }
        return Math.min(text.length(), i + 1);
    }
}
