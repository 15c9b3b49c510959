const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Page `i` of a generated site of `n` pages: a binary tree, /p/i links to /p/2i and /p/2i+1. */
export function pageOf(i: number, n: number): string {
  const kids = [2 * i, 2 * i + 1].filter((k) => k <= n).map((k) => `<a href="/p/${k}">article ${k}</a>`).join(' and ');
  return `<!doctype html><html lang="en"><title>Article ${i}</title><main><h1>Article ${i}</h1>
    <p>Text of article ${i}.${kids ? ` Read ${kids}.` : ''}</p><img src="${GIF}" width="20" height="20"></main></html>`;
}
