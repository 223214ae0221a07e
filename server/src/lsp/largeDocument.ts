// A document too large to parse on the server's thread: parsing 8 MB takes seconds there, and every other
// document's hover, completion and outline would wait for it. Such a document's parse happens in its analysis
// process only (its diagnostics, outline, folding, quick fixes, format); semantic highlighting (the TextMate
// grammar still colours it) and the features that follow the cursor are off for it (docs/limits.md).

/** Characters (UTF-16 units) past which a document is large: about what the thread parses in 100 ms. */
export const LARGE_DOCUMENT_CHARS = 1_000_000;

export const isLarge = (text: string): boolean => text.length > LARGE_DOCUMENT_CHARS;
