//! What `reqparse serve` answers for one request, shared by the native engine and the
//! component guest so both give byte-identical JSON. (Filled in by the integrator.)
