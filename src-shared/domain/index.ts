/** The trader's world as every process sees it: zod schemas with their inferred types. */
export * from './amount';
export * from './market';
export * from './order';
export * from './balance';
