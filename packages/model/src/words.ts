/**
 * A name with its indefinite article, as error texts and prompts write it: "an Access", "an Application
 * Cooperation", "a Node". ArchiMate's type and viewpoint names start with a vowel letter exactly when they start
 * with a vowel sound (no "University" or "Hour" among them), so the first letter decides.
 */
export function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}
