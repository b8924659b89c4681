/* MAX78000 functional coverage: crosses over the layer features of spec max78000.md section 3 (kernel,
 * pooling, passes, 1-D, flatten, output width, bias, quadrants, processors) and the run mode of section 4,
 * sampled per layer from the registers the golden model runs (its layer hook), so random networks, directed
 * tests and the SDK trace all count. Report and gate: python3 -m flow.fcov_report max78000. */
#ifndef MAX78000_COV_H
#define MAX78000_COV_H
#include "fcov.h"
#include "max78000_layer.h"

fcov_t *max78000_cov_new(void);
/* Layer y just ran in the golden model; lp[q] are its decoded parameters in each quadrant. */
void max78000_cov_layer(fcov_t *c, const max78000_t *m, unsigned y, const max78000_lp_t lp[4]);
#endif
