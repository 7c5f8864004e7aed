export declare const LAYERS: Readonly<Record<string, readonly string[]>>
export declare const REASONS: Readonly<Record<string, string>>
export declare const CHAPTERS: Readonly<Record<string, readonly string[]>>
