pub mod naive_inphexion;
