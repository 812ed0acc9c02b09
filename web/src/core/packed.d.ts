export interface Packed { numbers: Float64Array; at: number; rows: number; cols: number; factor: number }
export declare const PACKED: unique symbol;
export declare const LAZY: unique symbol;
export declare function lazyRows<T>(n: number, build: (r: number) => T): T[];
