export declare const LAYERS: Readonly<Record<string, readonly string[]>>
export declare const REASONS: Readonly<Record<string, string>>
