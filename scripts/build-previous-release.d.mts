// Types of ./build-previous-release.mjs (plain JavaScript: `npm test` runs it without a compiler).

export declare function previousReleaseCommit(): string;
export declare function buildPreviousRelease(options?: { log?: (line: string) => void }): string;
