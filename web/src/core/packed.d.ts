export interface Packed { numbers: Float64Array; at: number; rows: number; cols: number; factor: number }
export declare const PACKED: unique symbol;
