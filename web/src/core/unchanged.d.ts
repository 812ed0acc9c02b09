/** next, with each matrix or vector whose numbers equal previous's at the same place replaced by previous's object. */
export declare function keepUnchanged<T>(previous: unknown, next: T): T;
