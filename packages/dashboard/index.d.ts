/** The built dashboard's folder (index.html and the hashed assets/): makeWorkbay's `dashboard: { dir }`. */
export declare const dashboardDir: string
