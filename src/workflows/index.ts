export { ScanWorkflow } from './scan.workflow.ts';
