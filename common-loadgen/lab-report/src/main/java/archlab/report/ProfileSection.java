package archlab.report;

import java.util.List;

/**
 * The profile part of a report: already-rendered text (the three top tables, the GC line, any notes)
 * and a JSON-friendly value holding the same figures.
 *
 * @param text     lines to print after "where the time went"
 * @param json     records / maps / lists that Jackson can write
 * @param jfrFile  the recording, kept beside the report for JDK Mission Control
 */
public record ProfileSection(List<String> text, Object json, String jfrFile) {
}
