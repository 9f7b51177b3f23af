/** A problem details body as every service and the gateway write it (CONTRACT 7). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  rejectedPermissions?: string[];
  errors?: { field: string; message: string }[];
}
