// The languageFacts layer's entrance: everything other folders use from it.
export { CONTEXT_BY_NAME, CONTEXT_VARIABLES } from "./context";
export { fieldsOf, itemOf, methodKinds, scalar, typeLabel } from "./fact";
export type { Fact, FieldFact, ValueType } from "./fact";
export { FILTERS, FILTERS_BY_NAME } from "./filters";
export { GLOBALS, GLOBALS_BY_NAME } from "./globals";
export { EXPRESSION_KEYWORDS, EXPRESSION_KEYWORDS_BY_NAME, TAGS, TAGS_BY_NAME } from "./keywords";
export { LOOP_VARIABLE } from "./loop";
export { MACRO_VARIABLES, MACRO_VARIABLES_BY_NAME } from "./macro";
export { DICT_METHODS, DICT_METHODS_BY_NAME, STR_METHODS, STR_METHODS_BY_NAME } from "./methods";
export { TESTS, TESTS_BY_NAME } from "./tests";
