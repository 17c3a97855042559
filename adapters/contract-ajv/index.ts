export { AjvInputValidator, createAjvInputValidator } from './ajv-input-validator.js';
