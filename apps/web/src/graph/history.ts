/** The last queries run, newest first, kept in this browser only (localStorage), for every workspace alike. */
const KEY = "ams.explore.history";
const MAX = 30;

export function readHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((q): q is string => typeof q === "string") : [];
  } catch {
    return [];
  }
}

export function remember(query: string): string[] {
  const list = [query, ...readHistory().filter((q) => q !== query)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {}
  return list;
}

export function forget(): void {
  localStorage.removeItem(KEY);
}
