export declare const BRAND_PREFIX: "brand-";
export declare const brandId: (name: string) => string;
export declare const SYMBOL_ID_PREFIX: "icon-";
export declare const symbolId: (name: string) => string;

export declare function spriteDocument(symbols: { id: string; attributes: string; body: string }[]): string;
